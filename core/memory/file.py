"""One memory JSON file: typed entries, changes under a file lock, corrupt files set aside.

Layout: one entry per line inside a JSON array, so a save re-encodes only the entries that
changed and reuses the stored line of every other one. A change to a large file is appended to
its journal (`<file>.journal`, see journal.py) instead of rewriting the file; the journal is
folded into the file when it grows, and at session end (consolidation).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.memory import journal
from core.memory.entry import PATH_TYPES, MemoryEntry
from core.memory.layout import aside_path, encode, parse_all, read_layout, set_aside_lines
from core.memory.tracked import Tracked
from my_agent.capped import MEMORY, read_capped
from my_agent.files import atomic_write, file_lock

SCHEMA_VERSION = 1
JOURNAL_FROM = 256 * 1024  # a smaller file is rewritten whole at each change (cheap)
FOLD_RATIO = 16  # the journal is folded once it outgrows 1/16 of the file ...
FOLD_MAX = 1024 * 1024  # ... or 1 MiB, whichever is less (a load replays it)
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
    """One JSON file of entries and its journal. Every change happens under the lock on the
    latest contents (our copy, brought up to date with the journal's new lines, or the file
    read again), so none is lost; a change is one journal line or one atomic rewrite."""

    def __init__(self, path: Path, root: Path | None = None) -> None:
        self.path = path
        self.root = root  # the project folder; path-bound entries are checked against it
        self.warnings: list[str] = []
        self.hidden = 0  # entries stored about files that no longer exist (dropped at read)
        self._entries: Tracked | None = None
        self._lazy = False  # some of our entries may be unparsed (read lazily)
        self._seen: tuple[int, int, int] | None = None  # (inode, mtime_ns, size) of our copy
        self._log: tuple[int | None, int] = (None, 0)  # the journal's inode, end replayed
        self._logged: set[str] = set()  # keys the journal's lines touch
        self.broken = ""  # why this file must not be written this session
        self._purge = False  # lines were set aside that the file on disk still holds
        self._rewrite = False  # the next change writes the file whole (an older layout)

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    @property
    def journal_path(self) -> Path:
        return self.path.with_name(self.path.name + ".journal")

    def entries(self) -> dict[str, MemoryEntry]:
        """Every entry, parsed (in one pass). Unreadable lines are set aside with a warning
        and the file is saved without them, so they are set aside once."""
        if self._entries is None:
            with contextlib.ExitStack() as stack:
                if self.path.exists() or self.journal_path.exists():  # a new one: no lock file
                    with contextlib.suppress(OSError):  # a read-only home: read without it
                        stack.enter_context(file_lock(self.lock_path))
                self._entries = self._read(lazy=False)
        parse_all(self._entries.values())
        self._drop_broken(list(self._entries.values()), self._entries)
        self._lazy = False
        if self._purge and not self.broken:
            with contextlib.suppress(OSError):  # read-only: they are set aside next time
                self.change(lambda cur: None)
        return self._entries

    def change(self, fn: Callable[[dict[str, MemoryEntry]], Any], fold: bool = False) -> Any:
        """Apply `fn` to the current entries under the lock and save; returns what `fn` returns.
        Entries `fn` does not touch are neither parsed nor re-encoded. `fold`: write the file
        whole (and drop the journal) even if the change would fit in the journal."""
        if self.broken:
            raise OSError(self.broken)  # never write over a file we could not read
        with file_lock(self.lock_path):
            current = self._current()
            self._entries = None  # if `fn` or the write fails, the next use re-reads the file
            if self.broken:
                raise OSError(self.broken)
            current.start()
            unparsed = list(current.values()) if self._lazy else []
            result = fn(current)
            self._drop_broken(unparsed, current)  # lines `fn` found unreadable
            if self.broken:
                raise OSError(self.broken)
            self._write(current, fold)
            self._entries, self._purge = current, False
        return result

    def fold(self) -> None:
        """Write the journal's changes into the file and delete the journal (if there is one)."""
        if self.journal_path.exists():
            self.change(lambda cur: None, fold=True)

    def _current(self) -> Tracked:
        """The entries as stored now (under the lock): our copy plus the journal's new lines
        when the file is the one we read, else the file and journal read again."""
        if self._entries is not None and self._signature() == self._seen:
            log = journal.read(self.journal_path, *self._log)
            if log is not None:
                self._replay(self._entries, log)
                return self._entries
        return self._read()

    def _replay(self, entries: dict[str, MemoryEntry], log: journal.JournalRead) -> None:
        """Apply the journal's lines in order; unreadable ones are kept aside with a warning."""
        self._log = (log.ino, log.end)
        put: dict[str, MemoryEntry] = {}
        for puts, dels in log.records:
            for entry in puts:
                entries[entry.key] = put[entry.key] = entry
            for key in dels:
                entries.pop(key, None)
                put.pop(key, None)
            self._logged.update(e.key for e in puts)
            self._logged.update(dels)
        if log.bad:
            self._keep_journal_lines(log.bad)
        if self.root is not None and put:
            self._drop_missing(put, entries)

    def _keep_journal_lines(self, bad: list[bytes]) -> None:
        self._keep_aside(bad, self.journal_path, "memory journal", "line", "lines")

    def _drop_broken(self, seen: list[MemoryEntry], entries: dict[str, MemoryEntry]) -> None:
        """Take out entries whose line proved unreadable, keeping the lines in a side file
        (also when `fn` replaced the entry: its line is still set aside, never lost)."""
        broken = [e for e in seen if e.broken]
        for entry in broken:
            if entries.get(entry.head[0]) is entry:
                del entries[entry.head[0]]
        self._keep_entries(broken)

    def _keep_aside(self, lines: list[bytes], of: Path, what: str, one: str, many: str) -> None:
        """Unreadable lines of `of` kept in a side file (the next change writes without
        them), with one warning; memory is off for the file when even that fails."""
        if not lines:
            return
        try:
            name = set_aside_lines(of, lines)
        except OSError as exc:
            self.broken = (
                f"{what} {of} has unreadable {many} that could not be kept aside ({exc}); "
                "memory is off for it this session"
            )
            self.warnings.append(self.broken)
            return
        self._purge = True
        self.warnings.append(
            f"{what} {of}: {len(lines)} unreadable {one if len(lines) == 1 else many} "
            f"kept as {name}"
        )

    def _keep_entries(self, broken: list[MemoryEntry]) -> None:
        self._keep_aside([e.line for e in broken], self.path, "memory file", "entry", "entries")

    def _signature(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_ino, st.st_mtime_ns, st.st_size

    def _read(self, lazy: bool = True) -> Tracked:
        """The file and its journal replayed over it (read again if the file was replaced
        meanwhile, for a reader without the lock)."""
        for _ in range(3):
            self._seen = self._signature()
            entries = Tracked(self._read_file(lazy) if self._seen is not None else {})
            log = journal.read(self.journal_path)
            if self.broken or self._signature() == self._seen:
                break  # unreadable and stuck in place, or not replaced meanwhile
        self._logged, self.hidden, self._lazy = set(), 0, lazy
        if log is not None:
            self._replay(entries, log)
        if self.root is not None:
            self._drop_missing(entries, entries)
        return entries

    def _read_file(self, lazy: bool) -> dict[str, MemoryEntry]:
        try:
            data = read_capped(self.path, MEMORY)  # as bytes: lines go back out unchanged
            loaded = read_layout(data, _HEAD, _TAIL, lazy)  # our layout
            self._rewrite = loaded is None
            if loaded is None:  # not our layout (older, or edited by hand): parse all now
                raws = _migrate(json.loads(data.decode("utf-8")))["entries"]
                loaded = [MemoryEntry.from_dict(raw) for raw in raws]
        except (OSError, ValueError, KeyError, TypeError, AttributeError, MemoryFileError) as exc:
            self._seen = None
            return self._set_aside(exc)
        self._keep_entries([e for e in loaded if e.broken])
        return {e.head[0]: e for e in loaded if not e.broken}

    def _drop_missing(self, among: dict[str, MemoryEntry], entries: dict[str, MemoryEntry]) -> None:
        """Entries (of `among`) about a file that no longer exists are dropped."""
        root, access, there = str(self.root) + os.sep, os.access, os.F_OK
        for entry in [e for e in among.values() if e.head[1] in PATH_TYPES]:
            path = entry.head[2]
            if not path and entry.raw is None and (b'"path"' in entry.line or b"\\" in entry.line):
                path = entry.meta.get("path")  # further on (older writer, or by hand): parse,
                entry.dirty = entry.dirty or bool(path)  # and save it with its path first
            elif not path and entry.raw is not None:
                path = entry.meta.get("path")
            # os.access(F_OK) is os.path.exists without its Python wrapper: half the cost
            if path and not entry.broken and not access(root + path, there):
                del entries[entry.head[0]]
                self.hidden += 1

    def _set_aside(self, exc: Exception) -> dict[str, MemoryEntry]:
        """Keep the unreadable file under a new name and start empty, with a warning."""
        aside = aside_path(self.path)
        try:
            os.replace(self.path, aside)
        except OSError as move_exc:
            self.broken = (
                f"memory file {self.path} is unreadable ({str(exc)[:80]}) and could "
                f"not be moved aside ({move_exc}); memory is off for it this session"
            )
            if self.broken not in self.warnings:  # said once, however often it is read
                self.warnings.append(self.broken)
            return {}
        self.warnings.append(
            f"memory file {self.path} was unreadable ({str(exc)[:80]}); "
            f"kept as {aside.name}; starting with empty memory"
        )
        return {}

    def _write(self, entries: Tracked, fold: bool) -> None:
        """Save what the change did to `entries`: one journal line, or the file whole when it
        is small, the journal has grown, or `fold` asks for it."""
        changed, gone = entries.changes()
        size = self._seen[2] if self._seen else 0
        if fold or self._rewrite or self._purge or size < JOURNAL_FROM:
            return self._fold(entries, changed, gone)
        if not (changed or gone):
            return
        record = journal.encode_record([_encoded(e) for e in changed], gone)
        if self._log[1] + len(record) > min(size // FOLD_RATIO, FOLD_MAX):
            return self._fold(entries, changed, gone)
        self._append(record, [e.key for e in changed] + gone)

    def _append(self, record: bytes, keys: list[str]) -> None:
        self._log = journal.append(self.journal_path, record, self._log[1])
        self._logged.update(keys)

    def _fold(self, entries: dict[str, MemoryEntry], changed: list, gone: list[str]) -> None:
        """Write the file whole, then delete the journal. When the journal holds lines, this
        change goes there first with the last state of every key they touch: the change is
        then kept even if the write fails, and replaying the journal over the new file (a fold
        killed between the two steps) changes nothing."""
        if self._logged:
            keys = sorted(self._logged.union([e.key for e in changed], gone))
            lines = [_encoded(entries[k]) for k in keys if k in entries]
            self._append(journal.encode_record(lines, [k for k in keys if k not in entries]), keys)
            try:
                self._save(entries)
            except OSError as exc:  # the change is in the journal: folded another time
                self.warnings.append(f"memory file {self.path} not rewritten ({exc})")
                return
        else:
            self._save(entries)
        try:
            self.journal_path.unlink(missing_ok=True)
        except OSError:  # still there: a replay over the new file changes nothing
            return
        self._log, self._logged, self._rewrite, self.hidden = (None, 0), set(), False, 0

    def _save(self, entries: dict[str, MemoryEntry]) -> None:
        """One entry per line; an unchanged entry reuses the line it was read or written as."""
        for entry in entries.values():
            if entry.dirty or not entry.line:
                _encoded(entry)
        body = b",\n".join([e.line for e in entries.values()])
        atomic_write(self.path, b"%s\n%s\n%s\n" % (_HEAD, body, _TAIL))
        self._seen = self._signature()


def _encoded(entry: MemoryEntry) -> bytes:
    """The entry's line, encoded now if it changed."""
    if entry.dirty or not entry.line:
        entry.line = encode(entry.raw or entry.parse())
        entry.dirty = False
    return entry.line
