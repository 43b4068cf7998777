"""One memory JSON file: typed entries, atomic writes under a file lock, corrupt files set aside.

Layout: one entry per line inside a JSON array, so a save re-encodes only the entries that
changed and reuses the stored line of every other one.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.memory.entry import PATH_TYPES, MemoryEntry
from core.memory.layout import encode, parse_all, read_layout, set_aside_lines
from my_agent.files import atomic_write, file_lock

SCHEMA_VERSION = 1
_HEAD = f'{{"version":{SCHEMA_VERSION},"entries":['.encode()
_TAIL = b"]}"


class MemoryFileError(Exception):
    """The file exists but cannot be understood."""


def _migrate(data: Any) -> dict[str, Any]:
    """Bring older layouts up to SCHEMA_VERSION (version 0: a bare list of entries)."""
    if isinstance(data, list):
        data = {"version": 1, "entries": data}
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise MemoryFileError("not a memory file (no 'entries' list)")
    version = data.get("version")
    if not isinstance(version, int) or version > SCHEMA_VERSION:
        raise MemoryFileError(f"unknown schema version {version!r}")
    return data


class MemoryFile:
    """One JSON file of entries. Every change happens under the lock on the file's latest
    contents (re-read unless it is unchanged since we last read or wrote it), so none is lost."""

    def __init__(self, path: Path, root: Path | None = None) -> None:
        self.path = path
        self.root = root  # the project folder; path-bound entries are checked against it
        self.warnings: list[str] = []
        self._entries: dict[str, MemoryEntry] | None = None
        self._seen: tuple[int, int, int] | None = None  # (inode, mtime_ns, size) of our copy
        self.broken = ""  # why this file must not be written this session
        self._purge = False  # lines were set aside that the file on disk still holds

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    def entries(self) -> dict[str, MemoryEntry]:
        """Every entry, parsed (in one pass). Unreadable lines are set aside with a warning
        and the file is saved without them, so they are set aside once."""
        if self._entries is None:
            self._entries = self._read(lazy=False)
        parse_all(self._entries.values())
        self._drop_broken(list(self._entries.values()), self._entries)
        if self._purge and not self.broken:
            with contextlib.suppress(OSError):  # read-only: they are set aside next time
                self.change(lambda cur: None)
        return self._entries

    def change(self, fn: Callable[[dict[str, MemoryEntry]], Any]) -> Any:
        """Apply `fn` to the current entries under the lock and save; returns what `fn` returns.
        Entries `fn` does not touch are neither parsed nor re-encoded."""
        if self.broken:
            raise OSError(self.broken)  # never write over a file we could not read
        with file_lock(self.lock_path):
            fresh = self._entries is not None and self._signature() == self._seen
            current = dict(self._entries) if fresh and self._entries is not None else self._read()
            self._entries = None  # if `fn` or the write fails, the next use re-reads the file
            if self.broken:
                raise OSError(self.broken)
            before = list(current.values())
            result = fn(current)
            self._drop_broken(before, current)  # lines `fn` found unreadable
            if self.broken:
                raise OSError(self.broken)
            self._save(current)
            self._entries, self._purge = current, False
        return result

    def _drop_broken(self, seen: list[MemoryEntry], entries: dict[str, MemoryEntry]) -> None:
        """Take out entries whose line proved unreadable, keeping the lines in a side file
        (also when `fn` replaced the entry: its line is still set aside, never lost)."""
        broken = [e for e in seen if e.broken]
        for entry in broken:
            if entries.get(entry.head[0]) is entry:
                del entries[entry.head[0]]
        self._keep_aside(broken)

    def _keep_aside(self, broken: list[MemoryEntry]) -> None:
        if not broken:
            return
        try:
            name = set_aside_lines(self.path, broken)
        except OSError as exc:
            self.broken = (
                f"memory file {self.path} has unreadable entries that could not be "
                f"kept aside ({exc}); memory is off for it this session"
            )
            self.warnings.append(self.broken)
            return
        self._purge = True  # the file still holds them until it is saved
        self.warnings.append(
            f"memory file {self.path}: {len(broken)} unreadable "
            f"entr{'y' if len(broken) == 1 else 'ies'} kept as {name}"
        )

    def _signature(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_ino, st.st_mtime_ns, st.st_size

    def _read(self, lazy: bool = True) -> dict[str, MemoryEntry]:
        self._seen = self._signature()
        if self._seen is None:
            return {}
        try:
            data = self.path.read_bytes()  # kept as bytes: lines go back out unchanged
            loaded = read_layout(data, _HEAD, _TAIL, lazy)  # our layout
            if loaded is None:  # not our layout (older, or edited by hand): parse all now
                raws = _migrate(json.loads(data.decode("utf-8")))["entries"]
                loaded = [MemoryEntry.from_dict(raw) for raw in raws]
        except (OSError, ValueError, KeyError, TypeError, AttributeError, MemoryFileError) as exc:
            self._seen = None
            return self._set_aside(exc)
        self._keep_aside([e for e in loaded if e.broken])
        entries = {e.head[0]: e for e in loaded if not e.broken}
        if self.root is not None:
            self._drop_missing(entries)
        return entries

    def _drop_missing(self, entries: dict[str, MemoryEntry]) -> None:
        """Entries about a file that no longer exists are dropped."""
        root, access, there = str(self.root) + os.sep, os.access, os.F_OK
        for entry in [e for e in entries.values() if e.head[1] in PATH_TYPES]:
            path = entry.head[2]
            if not path and entry.raw is None and (b'"path"' in entry.line or b"\\" in entry.line):
                path = entry.meta.get("path")  # further on (older writer, or by hand): parse,
                entry.dirty = entry.dirty or bool(path)  # and save it with its path first
            elif not path and entry.raw is not None:
                path = entry.meta.get("path")
            # os.access(F_OK) is os.path.exists without its Python wrapper: half the cost
            if path and not entry.broken and not access(root + path, there):
                del entries[entry.head[0]]

    def _set_aside(self, exc: Exception) -> dict[str, MemoryEntry]:
        """Keep the unreadable file under a new name and start empty, with a warning."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{os.urandom(2).hex()}")
        try:
            os.replace(self.path, aside)
        except OSError as move_exc:
            self.broken = (
                f"memory file {self.path} is unreadable ({str(exc)[:80]}) and could "
                f"not be moved aside ({move_exc}); memory is off for it this session"
            )
            self.warnings.append(self.broken)
            return {}
        self.warnings.append(
            f"memory file {self.path} was unreadable ({str(exc)[:80]}); "
            f"kept as {aside.name}; starting with empty memory"
        )
        return {}

    def _save(self, entries: dict[str, MemoryEntry]) -> None:
        """One entry per line; an unchanged entry reuses the line it was read or written as."""
        for entry in entries.values():
            if entry.dirty or not entry.line:
                entry.line = encode(entry.raw or entry.parse())
                entry.dirty = False
        body = b",\n".join([e.line for e in entries.values()])
        atomic_write(self.path, b"%s\n%s\n%s\n" % (_HEAD, body, _TAIL))
        self._seen = self._signature()
