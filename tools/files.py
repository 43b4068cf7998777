"""read_file and write_file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params
from tools.workspace import display, resolve_path

MAX_BYTES = 100_000


def _read_text(target: Path) -> tuple[str, str]:
    raw = target.read_bytes()
    if b"\0" in raw[:8192]:
        raise ToolError(f"{target.name} is a binary file ({len(raw)} bytes); not shown")
    for enc in ("utf-8", "gb18030", "latin-1"):
        try:
            return raw.decode(enc), enc
        except UnicodeDecodeError:
            continue
    raise ToolError(f"cannot decode {target.name}")


def read_file(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    target = resolve_path(ctx, args["path"])
    if not target.exists():
        raise ToolError(f"{args['path']}: no such file")
    if target.is_dir():
        raise ToolError(f"{args['path']} is a directory; use list_files")
    text, enc = _read_text(target)
    lines = text.splitlines()
    offset = max(1, int(args.get("offset", 1)))
    limit = max(1, int(args.get("limit", 2000)))
    chunk, size = [], 0
    for no in range(offset, min(len(lines), offset + limit - 1) + 1):
        row = f"{no:>6}\t{lines[no - 1]}"
        size += len(row) + 1
        if size > MAX_BYTES:
            break
        chunk.append(row)
    last = offset + len(chunk) - 1
    body = "\n".join(chunk)
    if last < len(lines):
        body += f"\n[lines {offset}-{last} of {len(lines)}; read on with offset={last + 1}]"
    if enc != "utf-8":
        body = f"[encoding: {enc}]\n" + body
    return ToolOutput(body, data={"lines": len(lines), "encoding": enc, "path": display(ctx, target)})


def _atomic_write(target: Path, data: bytes) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_file(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    target = resolve_path(ctx, args["path"])
    if target.is_dir():
        raise ToolError(f"{args['path']} is a directory")
    content: str = args["content"]
    old = target.read_bytes() if target.exists() else None
    if args.get("append") and old is not None:
        data = old + content.encode("utf-8")
    else:
        data = content.encode("utf-8")
    _atomic_write(target, data)
    rel = display(ctx, target)
    n = content.count("\n") + (0 if content.endswith("\n") or not content else 1)
    verb = "appended to" if args.get("append") and old is not None else (
        "overwrote" if old is not None else "created")
    return ToolOutput(f"{verb} {rel} ({n} lines)", data={"path": rel, "lines": n})


TOOLS = [
    Tool(
        "read_file",
        "Read a text file with 1-based line numbers. Use offset/limit for long files.",
        params(["path"], path={"type": "string"}, offset={"type": "integer"},
               limit={"type": "integer"}),
        read_file,
        key_arg="path",
    ),
    Tool(
        "write_file",
        "Create or overwrite a file (parent folders created); append=true appends.",
        params(["path", "content"], path={"type": "string"}, content={"type": "string"},
               append={"type": "boolean"}),
        write_file,
        key_arg="path",
    ),
]
