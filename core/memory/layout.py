"""The line layout of a memory file, read lazily: one entry per line, parsed on first use.

    {"version":1,"entries":[
    {"key":"file:src/app.py","type":"files","meta":{"path":"src/app.py",...},"content":...},
    ...
    ]}

A load reads the whole file but parses no entry: one regex pass over the text takes each
line's key, type and (for entries about a file) path from the line's start, which our writer
puts first. Fields are parsed when used; `parse_all` parses every pending line in one
`json.loads`. A line the regex does not recognise (edited by hand) is parsed at load. A line
that turns out unreadable is set aside in a `<file>.corrupt-*` file with a warning, never lost.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from core.memory.entry import MemoryEntry, StoredEntry
from my_agent.files import atomic_write

# A body line's start as our writer puts it; strings without escapes only (those are parsed).
_STR = rb'"([^"\\\n]*)"'
_START = rb'\{"key":' + _STR + rb',"type":' + _STR + rb'(?:,"meta":\{"path":' + _STR + rb")?"
_LINE = re.compile(_START)
# A whole body line of ours (without the comma that ends it): the line, key, type, path.
_LINE_IN_DATA = re.compile(rb"\n(" + _START + rb"[^\n]*\})(?=,?\n)")


def read_layout(data: bytes, head: bytes, tail: bytes, lazy: bool) -> list[MemoryEntry] | None:
    """The entries of a file in our layout, None for any other data. Lazily: unparsed, except
    lines whose start is not our writer's (unreadable ones come back broken). Otherwise all
    parsed, by one `json.loads` of the whole file when it is readable, line by line if not."""
    if not (data.startswith(head + b"\n") and data.endswith(b"\n" + tail + b"\n")):
        return None
    body = data[len(head) + 1 : -len(tail) - 2]
    if not body:
        return []
    if lazy:
        return _lazy(data, body)
    lines = body.split(b",\n")
    try:
        raws = json.loads(data.decode("utf-8"))["entries"]
        if len(raws) == len(lines):
            return [MemoryEntry.from_dict(raw, line) for raw, line in zip(raws, lines, strict=True)]
    except (ValueError, KeyError, TypeError, AttributeError):
        pass  # some line is unreadable: find it below
    entries = _lazy(data, body)
    parse_all(entries)
    return entries


def _texts(parts: tuple[bytes, ...]) -> list[str]:
    """Decode many short strings (no newlines in them) in one call each way."""
    return b"\n".join(parts).decode("utf-8").split("\n")


def _lazy(data: bytes, body: bytes) -> list[MemoryEntry]:
    ours = _LINE_IN_DATA.findall(data)
    if ours and len(ours) == data.count(b"\n") - 2:  # every body line is ours
        lines, keys, kinds, paths = zip(*ours, strict=True)
        heads = zip(_texts(keys), _texts(kinds), _texts(paths), strict=True)
        return list(map(StoredEntry, lines, heads))
    entries: list[MemoryEntry] = []
    for line in body.split(b"\n"):
        line = line.removesuffix(b",")
        found = _LINE.match(line)
        if found:
            head = tuple(part.decode("utf-8") for part in found.groups(b""))
            entries.append(StoredEntry(line, head))  # type: ignore[arg-type]
            continue
        try:  # not our writer's start: parse (and repair, as at any load) now
            entries.append(MemoryEntry.from_dict(json.loads(line.decode("utf-8")), line))
        except (ValueError, KeyError, TypeError, AttributeError):
            entry = StoredEntry(line, ("", "", ""))
            entry.adopt(None)  # broken
            entries.append(entry)
    return entries


def parse_all(entries: Iterable[MemoryEntry]) -> None:
    """Parse every pending entry: one `json.loads` for all their lines, and line by line only
    if that fails (which also finds the unreadable lines)."""
    pending = [e for e in entries if e.raw is None]
    if not pending:
        return
    try:
        values = json.loads(b"[" + b",".join([e.line for e in pending]) + b"]")
    except ValueError:
        values = None
    if type(values) is list and len(values) == len(pending):
        pending = [e for e, value in zip(pending, values, strict=True) if not e.adopt(value)]
        for entry in pending:  # disagreed with its line's start: read the line on its own
            entry.raw, entry.broken = None, False
    for entry in pending:
        entry.parse()


def encode(raw: dict[str, Any]) -> bytes:
    """One line for an entry: key, type and a file path first (what a lazy load reads)."""
    meta = raw.get("meta")
    first: dict[str, Any] = {"key": raw["key"], "type": raw["type"]}
    if type(meta) is dict and "path" in meta:
        first["meta"] = {"path": meta["path"], **meta}
    return json.dumps(
        {**first, **{k: v for k, v in raw.items() if k not in first}},
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode("utf-8")


def aside_path(path: Path) -> Path:
    """A new `<file>.corrupt-<time>-<random>` next to `path`, for what could not be read."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return path.with_name(f"{path.name}.corrupt-{stamp}-{os.urandom(2).hex()}")


def set_aside_lines(path: Path, lines: list[bytes]) -> str:
    """Write unreadable lines to a new `<file>.corrupt-*` next to `path`; returns its name."""
    aside = aside_path(path)
    atomic_write(aside, b"".join(line + b"\n" for line in lines))
    return aside.name
