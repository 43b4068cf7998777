"""One memory JSON file: typed entries, atomic writes under a file lock, corrupt files set aside.

Layout: one entry per line inside a JSON array, so a save re-encodes only the entries that
changed and reuses the stored line of every other one.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
PATH_TYPES = ("files", "conventions")  # entries about one file; dropped when it disappears
_HEAD = f'{{"version":{SCHEMA_VERSION},"entries":['
_TAIL = "]}"


@dataclass(slots=True)
class MemoryEntry:
    key: str  # unique within its file: "file:src/app.py", "command:test:pytest", "note:..."
    type: str
    content: str
    source: str = ""  # the session that wrote it
    created: float = 0.0  # epoch seconds
    updated: float = 0.0
    hits: int = 0  # how often it was injected into a prompt
    tags: list[str] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)  # structured fields (path, lines, ...)
    id: str = field(default_factory=lambda: secrets.token_hex(4))

    @classmethod
    def from_dict(cls, raw: dict[str, Any]) -> MemoryEntry:
        """Fast for files we wrote; anything odd goes through the careful path."""
        try:
            entry = cls(**raw)
        except TypeError:
            return cls._coerce(raw)
        if type(entry.content) is not str or type(entry.key) is not str or \
                type(entry.meta) is not dict or type(entry.tags) is not list or \
                not isinstance(entry.updated, float | int):
            return cls._coerce(raw)
        return entry

    @classmethod
    def _coerce(cls, raw: dict[str, Any]) -> MemoryEntry:
        content = raw.get("content", "")
        if isinstance(content, list):  # single values stay one line, lists become one line
            content = ", ".join(str(c) for c in content)
        return cls(key=str(raw["key"]), type=str(raw.get("type", "notes")), content=str(content),
                   source=str(raw.get("source", "")), created=float(raw.get("created", 0)),
                   updated=float(raw.get("updated", 0)), hits=int(raw.get("hits", 0)),
                   tags=[str(t) for t in raw.get("tags", [])], meta=dict(raw.get("meta", {})),
                   id=str(raw.get("id") or secrets.token_hex(4)))

    def to_dict(self) -> dict[str, Any]:
        """The stored form; empty optional fields are left out to keep the file small."""
        raw: dict[str, Any] = {"key": self.key, "type": self.type, "content": self.content,
                               "id": self.id, "created": self.created, "updated": self.updated}
        if self.source:
            raw["source"] = self.source
        if self.hits:
            raw["hits"] = self.hits
        if self.tags:
            raw["tags"] = self.tags
        if self.meta:
            raw["meta"] = self.meta
        return raw


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


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` (a sidecar file), released on exit; blocks while held."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as fh:
        if os.name == "nt":  # pragma: no cover - exercised on Windows only
            import msvcrt

            while True:
                try:
                    msvcrt.locking(fh.fileno(), msvcrt.LK_LOCK, 1)
                    break
                except OSError:
                    time.sleep(0.01)
            try:
                yield
            finally:
                fh.seek(0)
                msvcrt.locking(fh.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            import fcntl

            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def atomic_write(path: Path, text: str) -> None:
    """Temp file in the same folder, fsync, rename: readers see the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class StoredLines:
    """Each entry's line as last read or written, with the raw values it was read from. An entry
    that is the same object with the same time, hit count and text reuses its line on save."""

    def __init__(self, entries: list[MemoryEntry], lines: list[str],
                 raws: list[dict[str, Any]]) -> None:
        self.entries, self.lines, self.raws = entries, lines, raws  # entries keep ids unique
        self._index: dict[int, int] | None = None

    def reuse(self, entry: MemoryEntry) -> tuple[str, dict[str, Any]] | None:
        """(stored line, raw values) when `entry` is unchanged since read or written."""
        if self._index is None:
            self._index = {id(e): i for i, e in enumerate(self.entries)}
        i = self._index.get(id(entry))
        if i is None:
            return None
        raw = self.raws[i]
        if raw.get("updated") != entry.updated or raw.get("hits", 0) != entry.hits or \
                raw.get("content") is not entry.content:
            return None
        line = self.lines[i]
        return (line[:-1] if line.endswith(",") else line), raw


class MemoryFile:
    """One JSON file of entries. Every change happens under the lock on the file's latest
    contents (re-read unless it is unchanged since we last read or wrote it), so none is lost."""

    def __init__(self, path: Path, root: Path | None = None) -> None:
        self.path = path
        self.root = root  # the project folder; path-bound entries are checked against it
        self.warnings: list[str] = []
        self._entries: dict[str, MemoryEntry] | None = None
        self._seen: tuple[int, int, int] | None = None  # (inode, mtime_ns, size) of our copy
        self._stored: StoredLines | None = None
        self.broken = ""  # why this file must not be written this session

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    def entries(self) -> dict[str, MemoryEntry]:
        if self._entries is None:
            self._entries = self._read()
        return self._entries

    def change(self, fn: Callable[[dict[str, MemoryEntry]], Any]) -> Any:
        """Apply `fn` to the current entries under the lock and save; returns what `fn` returns."""
        if self.broken:
            raise OSError(self.broken)  # never write over a file we could not read
        with file_lock(self.lock_path):
            fresh = self._entries is not None and self._signature() == self._seen
            current = dict(self._entries) if fresh and self._entries is not None else self._read()
            self._entries = None  # if `fn` or the write fails, the next use re-reads the file
            if self.broken:
                raise OSError(self.broken)
            result = fn(current)
            self._save(current)
            self._entries = current
        return result

    def _signature(self) -> tuple[int, int, int] | None:
        try:
            st = os.stat(self.path)
        except OSError:
            return None
        return st.st_ino, st.st_mtime_ns, st.st_size

    def _read(self) -> dict[str, MemoryEntry]:
        self._seen = self._signature()
        self._stored = None
        if self._seen is None:
            return {}
        try:
            text = self.path.read_bytes().decode("utf-8")
            data = _migrate(json.loads(text))
            loaded = [MemoryEntry.from_dict(raw) for raw in data["entries"]]
        except (OSError, ValueError, KeyError, TypeError, AttributeError, MemoryFileError) as exc:
            self._seen = None
            return self._set_aside(exc)
        lines = text.split("\n")
        if len(lines) == len(loaded) + 3 and lines[0] == _HEAD and lines[-2] == _TAIL:
            self._stored = StoredLines(loaded, lines[1:-2], data["entries"])
        if self.root is None:
            return {e.key: e for e in loaded}
        root, exists = str(self.root) + os.sep, os.path.exists
        return {e.key: e for e in loaded
                if e.type not in PATH_TYPES or not e.meta.get("path")
                or exists(root + e.meta["path"])}

    def _set_aside(self, exc: Exception) -> dict[str, MemoryEntry]:
        """Keep the unreadable file under a new name and start empty, with a warning."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{secrets.token_hex(2)}")
        try:
            os.replace(self.path, aside)
        except OSError as move_exc:
            self.broken = f"memory file {self.path} is unreadable ({str(exc)[:80]}) and could " \
                f"not be moved aside ({move_exc}); memory is off for it this session"
            self.warnings.append(self.broken)
            return {}
        self.warnings.append(f"memory file {self.path} was unreadable ({str(exc)[:80]}); "
                             f"kept as {aside.name}; starting with empty memory")
        return {}

    def _save(self, entries: dict[str, MemoryEntry]) -> None:
        stored = self._stored or StoredLines([], [], [])
        raws: list[dict[str, Any]] = []
        lines: list[str] = []
        for entry in entries.values():
            kept = stored.reuse(entry)
            raw = kept[1] if kept else entry.to_dict()
            raws.append(raw)
            lines.append(kept[0] if kept else json.dumps(raw, ensure_ascii=False,
                                                         separators=(",", ":")))
        atomic_write(self.path, f"{_HEAD}\n" + ",\n".join(lines) + f"\n{_TAIL}\n")
        self._seen = self._signature()
        self._stored = StoredLines(list(entries.values()), lines, raws)
