"""search_files and list_files: the same ignore rules, compact grouped output."""

from __future__ import annotations

import os
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from my_agent.walk import Entry, walk
from tools.base import Tool, ToolContext, ToolError, ToolOutput, params
from tools.grep import Hits, glob_filter, search
from tools.regex_limit import SEARCH_SECONDS, SearchTimeout
from tools.workspace import display, resolve_path

MAX_RESULTS = 500
LINE_CHARS = 240  # a matching line is cut to this many characters
MAX_NAMES = 20
LIST_CAP = 300  # lines of list_files output
PER_DIR = 40  # entries shown per folder in the tree
MAX_VISIT = 20_000  # entries a tree listing looks at


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
        out.append(
            "other files: "
            + ", ".join(rest[:MAX_NAMES])
            + (f" … (+{len(rest) - MAX_NAMES} files)" if len(rest) > MAX_NAMES else "")
        )
    if total > shown:
        out.append(
            f"[{total} matching lines in {nfiles} files; showing {shown}: narrow with "
            "path= or file_glob=]"
        )
    elif total:
        out.append(f"[{total} matching lines in {nfiles} files]")
    if not out:
        out.append("no matches")
    data = {
        "matches": total,
        "files": nfiles,
        "paths": [p for p, _ in hits.counts[:100]],
        "names": hits.names[:100],
        "engine": hits.engine,
    }
    return "\n".join(out), data


def search_files(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    pattern: str = args["pattern"]
    if not pattern:
        raise ToolError("pattern is empty")
    flags = re.IGNORECASE if args.get("ignore_case", True) else 0
    try:
        regex = re.compile(pattern, flags | re.MULTILINE)
    except re.error as exc:
        raise ToolError(
            f"invalid regex {pattern!r}: {exc}; escape special characters "
            "like ( [ . * with a backslash"
        ) from None
    root = ctx.workspace.resolve()
    target = resolve_path(ctx, args.get("path") or ".")
    if not target.exists():
        raise ToolError(f"{args.get('path')}: no such file or folder")
    limit = min(max(1, int(args.get("max_results", 50))), MAX_RESULTS)
    try:
        hits = search(_base(root, target), target, regex, args.get("file_glob"), limit)
    except SearchTimeout:
        raise ToolError(
            f"search stopped: the regex {pattern!r} hit the {SEARCH_SECONDS:g} s time limit "
            "(nested quantifiers such as (a+)+ backtrack without end); simplify the pattern "
            "or narrow path/file_glob"
        ) from None
    text, data = render_hits(hits, limit)
    return ToolOutput(text, data={**data, "pattern": pattern})


def _base(root: Path, target: Path) -> Path:
    """Paths are shown relative to the workspace, or to the approved outside folder."""
    if target == root or root in target.parents:
        return root
    return target if target.is_dir() else target.parent


def tree_lines(base: Path, start: str, depth: int) -> tuple[list[str], int]:
    """An indented tree, at most PER_DIR entries per folder and LIST_CAP lines in all; folders
    at the depth limit show how many entries they hold. Also the number of entries seen."""
    children: dict[str, list[Entry]] = defaultdict(list)
    seen = 0
    for entry in walk(base, start, max_depth=depth, dirs=True):
        children[entry.rel.rpartition("/")[0]].append(entry)
        seen += 1
        if seen >= MAX_VISIT:
            break
    out: list[str] = []

    def render(folder: str, indent: str) -> None:
        kids = children.get(folder, [])
        for k, entry in enumerate(kids):
            if len(out) >= LIST_CAP:
                return
            if k == PER_DIR:
                out.append(f"{indent}… {len(kids) - PER_DIR} more")
                return
            name = entry.rel.rpartition("/")[2]
            if not entry.is_dir:
                out.append(indent + name)
            elif entry.depth >= depth:
                out.append(f"{indent}{name}/ ({_count(base / entry.rel)} entries)")
            else:
                out.append(f"{indent}{name}/")
                render(entry.rel, indent + "  ")

    render(start, "")
    return out, seen


def _count(folder: Path) -> int:
    try:
        return len(os.listdir(folder))
    except OSError:
        return 0


def list_files(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    root = ctx.workspace.resolve()
    target = resolve_path(ctx, args.get("path") or ".")
    if not target.is_dir():
        raise ToolError(
            f"{args.get('path')} is not a folder"
            if target.exists()
            else f"{args.get('path')}: no such folder"
        )
    base = _base(root, target)
    start = "" if target == base else target.relative_to(base).as_posix()
    rel = display(ctx, target)
    pattern = args.get("pattern")
    if pattern:
        match = glob_filter(pattern)
        found = [e.rel for e in walk(base, start) if match(e.rel)]
        body, total = found[:LIST_CAP], len(found)
        cut = total > LIST_CAP
        empty = f"(nothing matches {pattern})"
    else:
        depth = min(max(1, int(args.get("depth", 3))), 20)
        body, total = tree_lines(base, start, depth)
        found = [line.strip() for line in body]
        cut = len(body) >= LIST_CAP
        empty = "(empty folder)"
    lines = [f"{rel}/" if rel != "." else "./", *body]
    if cut:
        lines.append(
            f"[showing {len(body)} of {total}{'+' if total >= MAX_VISIT else ''} "
            "entries; narrow with path=, pattern= or depth=]"
        )
    elif not body:
        lines.append(empty)
    return ToolOutput("\n".join(lines), data={"path": rel, "count": total, "files": found[:200]})


TOOLS = [
    Tool(
        "search_files",
        "Regex search of file contents and names, with line numbers (respects .gitignore).",
        params(
            ["pattern"],
            pattern={"type": "string"},
            path={"type": "string"},
            file_glob={"type": "string", "description": "e.g. src/**/*.ts"},
            max_results={"type": "integer", "minimum": 1},
            ignore_case={"type": "boolean"},
        ),
        search_files,
        key_arg="pattern",
        read_only=True,
    ),
    Tool(
        "list_files",
        "A folder as a tree (depth: levels), or the files matching a glob pattern (**/*.py).",
        params(
            [],
            path={"type": "string"},
            pattern={"type": "string"},
            depth={"type": "integer", "minimum": 1},
        ),
        list_files,
        key_arg="path",
        read_only=True,
    ),
]
