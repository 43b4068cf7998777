"""The journal beside a memory file: its changes since the file was last written whole.

    {"put":[{"key":"note:a","type":"notes",...}],"del":["note:b"]}

One line per change (JSON Lines), appended with one `write` and fsync'd under the file's lock,
so a change is in the journal whole or not at all: a last line without its newline (a writer
killed mid-write) is ignored, and cut off by the next writer before it appends. A load replays
the lines over the JSON file in order; each line sets entries (`put`, the whole entry) and
removes keys (`del`), so replaying lines the JSON file already holds changes nothing. When the
journal grows, the next change writes the JSON file whole and deletes the journal ("folding").
"""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.memory.entry import MemoryEntry

Record = tuple[list[MemoryEntry], list[str]]  # (entries set, keys removed)


@dataclass
class JournalRead:
    """What a read of the journal found past `start`."""

    ino: int | None  # the journal's inode (None: there is no journal)
    end: int  # where the last complete line ends: what was replayed
    size: int  # the file's size (more than `end`: a torn last line)
    records: list[Record] = field(default_factory=list)
    bad: list[bytes] = field(default_factory=list)  # complete lines that are not a change


def read(path: Path, ino: int | None = None, start: int = 0) -> JournalRead | None:
    """The journal's complete lines from `start` on; None when it is not the journal read
    before (another inode, or shorter than `start`), so the caller reads everything again."""
    try:
        fh = open(path, "rb")
    except FileNotFoundError:
        return None if start else JournalRead(None, 0, 0)
    with fh:
        st = os.fstat(fh.fileno())
        if start and (st.st_ino != ino or st.st_size < start):
            return None
        fh.seek(start)
        data = fh.read()
    size = start + len(data)
    complete = data[: data.rfind(b"\n") + 1]
    found = JournalRead(st.st_ino, start + len(complete), size)
    if complete:
        _parse(complete.split(b"\n")[:-1], found)
    return found


def _parse(lines: list[bytes], into: JournalRead) -> None:
    """Records from lines: all in one `json.loads` when they are readable, else line by line."""
    try:
        values: Any = json.loads(b"[" + b",".join(lines) + b"]")
    except ValueError:
        values = None
    if type(values) is not list or len(values) != len(lines):
        values = [_loads(line) for line in lines]
    for line, value in zip(lines, values, strict=True):
        record = _record(value)
        if record is None:
            into.bad.append(line)
        else:
            into.records.append(record)


def _loads(line: bytes) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def _record(value: Any) -> Record | None:
    """A change from a parsed line, or None when the line is not one (all of it or none)."""
    if type(value) is not dict:
        return None
    puts, dels = value.get("put", []), value.get("del", [])
    if type(puts) is not list or type(dels) is not list:
        return None
    if not all(type(k) is str for k in dels):
        return None
    try:
        return [MemoryEntry.from_dict(raw) for raw in puts], dels
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def encode_record(lines: list[bytes], gone: list[str]) -> bytes:
    """One journal line: entries as their file lines (see layout.encode) and removed keys."""
    removed = json.dumps(gone, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return b'{"put":[%s],"del":%s}\n' % (b",".join(lines), removed)


def append(path: Path, record: bytes, end: int) -> tuple[int, int]:
    """Append one line (under the memory file's lock); anything past `end` (a torn line of a
    killed writer) is cut off first. Returns the journal's inode and its new end."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        st = os.fstat(fd)
        if st.st_size != end:
            os.ftruncate(fd, end)
        view = memoryview(record)
        try:
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
        except BaseException:
            with contextlib.suppress(OSError):  # a failed write leaves no partial line
                os.ftruncate(fd, end)
            raise
        return st.st_ino, end + len(record)
    finally:
        os.close(fd)
