"""search_files and list_files: the same ignore rules, compact grouped output."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params
from tools.grep import Hits, glob_filter, search
from tools.ignore import walk
from tools.workspace import display, resolve_path

MAX_RESULTS = 500
LINE_CHARS = 240  # a matching line is cut to this many characters
MAX_NAMES = 20
LIST_CAP = 300


def _clip(text: str) -> str:
    text = text.rstrip("\r").strip()
    return text if len(text) <= LINE_CHARS else text[:LINE_CHARS] + "…"


def render_hits(hits: Hits, limit: int) -> tuple[str, dict[str, Any]]:
    """Grouped by file: `path` then `  12: line`, capped at `limit` lines, with totals."""
    out: list[str] = []
    if hits.names:
        names = ", ".join(hits.names[:MAX_NAMES])
        more = f" (+{len(hits.names) - MAX_NAMES} more)" if len(hits.names) > MAX_NAMES else ""
        out.append(f"file names matching: {names}{more}")
    shown = 0
    rest: list[str] = []
    for path, count in hits.counts:
        lines = hits.lines.get(path, [])
        if shown >= limit or not lines:
            rest.append(f"{path} ({count})")
            continue
        take = lines[: limit - shown]
        out.append(path)
        out += [f"  {no}: {_clip(text)}" for no, text in take]
        if count > len(take):
            out.append(f"  … {count - len(take)} more in this file")
        shown += len(take)
    total, nfiles = hits.total, len(hits.counts)
    if rest:
        out.append("other files: " + ", ".join(rest[:MAX_NAMES])
                   + (f" … (+{len(rest) - MAX_NAMES} files)" if len(rest) > MAX_NAMES else ""))
    if total > shown:
        out.append(f"[{total} matching lines in {nfiles} files; showing {shown}: narrow with "
                   "path= or file_glob=]")
    elif total:
        out.append(f"[{total} matching lines in {nfiles} files]")
    if not out:
        out.append("no matches")
    data = {"matches": total, "files": nfiles, "paths": [p for p, _ in hits.counts[:100]],
            "names": hits.names[:100], "engine": hits.engine}
    return "\n".join(out), data


def search_files(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    pattern: str = args["pattern"]
    if not pattern:
        raise ToolError("pattern is empty")
    flags = re.IGNORECASE if args.get("ignore_case", True) else 0
    try:
        regex = re.compile(pattern, flags | re.MULTILINE)
    except re.error as exc:
        raise ToolError(f"invalid regex {pattern!r}: {exc}; escape special characters "
                        "like ( [ . * with a backslash") from None
    root = ctx.workspace.resolve()
    target = resolve_path(ctx, args.get("path") or ".")
    if not target.exists():
        raise ToolError(f"{args.get('path')}: no such file or folder")
    limit = min(max(1, int(args.get("max_results", 50))), MAX_RESULTS)
    hits = search(_base(root, target), target, regex, args.get("file_glob"), limit)
    text, data = render_hits(hits, limit)
    return ToolOutput(text, data={**data, "pattern": pattern})


def _base(root: Path, target: Path) -> Path:
    """Paths are shown relative to the workspace, or to the approved outside folder."""
    if target == root or root in target.parents:
        return root
    return target if target.is_dir() else target.parent


def _tree(entries: list, start_depth: int) -> list[str]:
    return [("  " * (e.depth - 1)) + e.rel.rsplit("/", 1)[-1] + ("/" if e.is_dir else "")
            for e in entries]


def list_files(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    root = ctx.workspace.resolve()
    target = resolve_path(ctx, args.get("path") or ".")
    if not target.is_dir():
        raise ToolError(f"{args.get('path')} is not a folder" if target.exists()
                        else f"{args.get('path')}: no such folder")
    base = _base(root, target)
    start = "" if target == base else target.relative_to(base).as_posix()
    pattern = args.get("pattern")
    depth = min(max(1, int(args.get("depth", 3))), 20)
    if pattern:
        match = glob_filter(pattern)
        found = [e.rel for e in walk(base, start) if match(e.rel)]
        body = found[:LIST_CAP]
    else:
        entries = list(_limited(walk(base, start, max_depth=depth, dirs=True)))
        found = [e.rel for e in entries]
        body = _tree(entries[:LIST_CAP], 1)
    rel = display(ctx, target)
    head = f"{rel}/" if rel != "." else "./"
    lines = [head, *body]
    if len(found) > LIST_CAP:
        lines.append(f"[showing {LIST_CAP} of {len(found)}+ entries; narrow with path= or "
                     "pattern=]")
    elif not found:
        lines.append("(no files)" if not pattern else f"(nothing matches {pattern})")
    return ToolOutput("\n".join(lines), data={"path": rel, "count": len(found),
                                              "files": found[:200]})


def _limited(entries, cap: int = LIST_CAP * 4):
    for n, entry in enumerate(entries):
        if n >= cap:
            return
        yield entry


TOOLS = [
    Tool(
        "search_files",
        "Regex search of file contents and names (respects .gitignore; skips binaries). "
        "Results grouped by file with line numbers.",
        params(["pattern"], pattern={"type": "string"}, path={"type": "string"},
               file_glob={"type": "string", "description": "e.g. *.py or src/**/*.ts"},
               max_results={"type": "integer", "minimum": 1},
               ignore_case={"type": "boolean"}),
        search_files,
        key_arg="pattern",
    ),
    Tool(
        "list_files",
        "List a folder as a tree (depth levels), or files matching a glob pattern like "
        "**/*.py. Respects .gitignore.",
        params([], path={"type": "string"}, pattern={"type": "string"},
               depth={"type": "integer", "minimum": 1}),
        list_files,
        key_arg="path",
    ),
]
