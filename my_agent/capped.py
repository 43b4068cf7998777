"""The one reader of the files Unicum itself reads (its settings and config, `.env` files,
`.mcp.json`, instruction files, skills, commands, agent definitions, hooks configs, memory and
ledger side files, approvals, prices, the code map's sources): every read has a size cap, only
a regular file is read (a FIFO, or a link to /dev/zero, is refused without blocking), and a file
left unread raises `NotRead`, an OSError whose text is the one line that says why, so a 6 GB
file planted in any of those places costs a line and never the start-up.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

KB, MB = 1024, 1024 * 1024
# the caps, by what is read (one place to see them all)
CONFIG = 1 * MB  # config.json, settings*.json, .mcp.json, approvals, prices, trust, caches
ENV = 256 * KB  # a .env file
DOCUMENT = 256 * KB  # a skill, a custom command, an agent definition, an instruction file
MEMORY = 64 * MB  # a memory file, its journal, its index (hundreds of thousands of entries)
SOURCE = 2 * MB  # a source file the code map parses
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


class NotRead(OSError):
    """A file left unread (too large, or not a regular file); `str()` is the one line,
    `why` the same without the path."""

    def __init__(self, path: Path | str, why: str) -> None:
        super().__init__(f"{path}: {why}")
        self.why = why


def _size(n: int) -> str:
    return f"{n / MB:.0f} MB" if n >= MB else f"{n // KB} KB"


def read_capped(path: Path | str, limit: int) -> bytes:
    """The bytes of `path` when it is a regular file of at most `limit` bytes; NotRead (one
    line) when it is larger (or grows past it while read) or is not a regular file."""
    fd = os.open(path, _FLAGS)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRead(path, "not a regular file; not read")
        if st.st_size > limit:
            raise NotRead(path, f"{_size(st.st_size)}, over the {_size(limit)} cap; not read")
        chunks, got = [], 0
        while got <= limit:
            chunk = os.read(fd, min(limit + 1 - got, MB))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise NotRead(path, f"over the {_size(limit)} cap; not read")
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_capped_text(path: Path | str, limit: int, errors: str = "strict") -> str:
    """`read_capped` decoded as UTF-8 (`errors` as for `bytes.decode`)."""
    return read_capped(path, limit).decode("utf-8", errors)


def read_head(path: Path | str, limit: int) -> bytes:
    """At most the first `limit` bytes of a regular file (a longer one is cut, not refused:
    instruction files, git's small files); NotRead when it is not a regular file."""
    fd = os.open(path, _FLAGS)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRead(path, "not a regular file; not read")
        chunks, got = [], 0
        while got < limit:
            chunk = os.read(fd, min(limit - got, MB))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)
