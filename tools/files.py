"""read_file and write_file."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params
from tools.edit import unified
from tools.images import looks_like_image, read_image
from tools.permissions import approve_edit
from tools.pycheck import syntax_line
from tools.snapshots import recorded
from tools.textfile import (
    Text,
    binary_kind,
    decode,
    encode,
    human_size,
    printable,
    read_text,
)
from tools.workspace import display, no_such_file, resolve_path, write_in_workspace

MAX_BYTES = 100_000  # of output per call
MAX_LINE = 2000  # characters per line shown
MAX_FILE = 64 * 1024 * 1024  # larger files: use search_files or terminal


def _numbered(lines: list[str], offset: int, limit: int) -> tuple[list[str], bool]:
    """Rows `  12\tcode` from line `offset`, stopping at `limit` lines or MAX_BYTES."""
    rows, size = [], 0
    for no in range(offset, min(len(lines), offset + limit - 1) + 1):
        line = lines[no - 1]
        if len(line) > MAX_LINE:
            line = line[:MAX_LINE] + f"… [{len(line) - MAX_LINE} more characters]"
        row = f"{no:>6}\t{line}"
        size += len(row.encode("utf-8")) + 1
        if size > MAX_BYTES and rows:
            return rows, True
        rows.append(row)
    return rows, False


def read_file(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    target = resolve_path(ctx, args["path"])
    if looks_like_image(target) and target.is_file():
        return read_image(ctx, target)
    if target.is_file() and target.stat().st_size > MAX_FILE:
        raise ToolError(
            f"{args['path']} is {human_size(target.stat().st_size)}; too large to "
            "read whole: use search_files, or terminal with head/tail/sed -n"
        )
    if not target.exists():
        raise no_such_file(ctx, target, args["path"])
    doc = read_text(target, args["path"])
    lines = printable(doc.text).splitlines()
    offset, limit = max(1, int(args.get("offset", 1))), max(1, int(args.get("limit", 2000)))
    rel = display(ctx, target)
    data = {"path": rel, "lines": len(lines), "encoding": doc.encoding, "offset": offset}
    if not lines:
        return ToolOutput(f"({rel} is empty)", data=data)
    if offset > len(lines):
        raise ToolError(f"offset {offset} is past the end of {rel} ({len(lines)} lines)")
    rows, capped = _numbered(lines, offset, limit)
    last = offset + len(rows) - 1
    head = f"[encoding: {doc.encoding}]\n" if doc.encoding not in ("utf-8", "utf-8-sig") else ""
    if doc.invalid:
        head = f"[utf-8 with {doc.invalid} invalid bytes, shown as \ufffd and kept on write]\n"
    body = head + "\n".join(rows)
    if last < len(lines):
        why = " (output size cap)" if capped else ""
        body += f"\n[lines {offset}-{last} of {len(lines)}{why}; read on with offset={last + 1}]"
    data.update(shown=[offset, last], truncated=last < len(lines))
    return ToolOutput(body, data=data)


def line_changes(old: str, new: str) -> tuple[int, int]:
    """(+added, -removed) lines between two texts."""
    added = removed = 0
    a, b = old.splitlines(), new.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            removed += i2 - i1
            added += j2 - j1
    return added, removed


def _existing(target: Path) -> Text | None:
    """The current text (None when absent or binary: then it is replaced as UTF-8)."""
    if not target.is_file():
        return None
    raw = target.read_bytes()
    return None if binary_kind(raw) else decode(raw)


def write_file(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    target = resolve_path(ctx, args["path"], write=True)
    if target.is_dir():
        raise ToolError(f"{args['path']} is a directory")
    content: str = args["content"].replace("\r\n", "\n")
    existed = target.exists()
    old = _existing(target)  # keeps the file's encoding and line endings
    if args.get("append") and existed and old is None:
        raise ToolError(
            f"{args['path']} is a binary file; cannot append text to it (nothing was changed)"
        )
    enc, newline = (old.encoding, old.newline) if old else ("utf-8", "\n")
    append = bool(args.get("append")) and old is not None
    new_text = (old.text if append and old else "") + content
    data = encode(new_text, enc, newline)
    rel = display(ctx, target)
    approve_edit(ctx, target, unified(old.text if old else "", new_text, rel)[0], not existed)
    with recorded(ctx, f"write_file {rel}", target):
        write_in_workspace(ctx, target, data)
    n = content.count("\n") + (0 if content.endswith("\n") or not content else 1)
    info: dict[str, Any] = {"path": rel, "lines": n, "encoding": enc}
    check = syntax_line(rel, new_text)
    if append:
        added: dict[str, Any] = {"added": n, "removed": 0}
        return ToolOutput(f"appended {n} lines to {rel}{check}", data={**info, **added})
    if not existed:
        return ToolOutput(
            f"created {rel} ({n} lines){check}", data={**info, "added": n, "removed": 0}
        )
    plus, minus = line_changes(old.text if old else "", content)
    return ToolOutput(
        f"overwrote {rel} ({n} lines, +{plus} -{minus}){check}",
        data={**info, "added": plus, "removed": minus},
    )


TOOLS = [
    Tool(
        "read_file",
        "Read a text file, lines numbered from 1 (offset: first line; limit: line count).",
        params(
            ["path"],
            path={"type": "string"},
            offset={"type": "integer", "minimum": 1},
            limit={"type": "integer", "minimum": 1},
        ),
        read_file,
        key_arg="path",
        read_only=True,
    ),
    Tool(
        "write_file",
        "Create or overwrite a file (append: add to its end); to change one prefer edit_file.",
        params(
            ["path", "content"],
            path={"type": "string"},
            content={"type": "string"},
            append={"type": "boolean"},
        ),
        write_file,
        key_arg="path",
    ),
]
