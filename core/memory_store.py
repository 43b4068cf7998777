"""Typed memory entries in JSON files: global and per project, atomic writes under a file lock."""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from core.memory_rank import DUPLICATE_RATIO, near_duplicate, similarity, tokens
from my_agent.config import project_id

SCHEMA_VERSION = 1
SCOPES = ("project", "global")
TYPES = ("user", "feedback", "project", "reference", "files", "commands", "conventions", "notes")
PATH_TYPES = ("files", "conventions")  # entries about one file; dropped when it disappears


@dataclass
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
        content = raw.get("content", "")
        if isinstance(content, list):  # single values stay one line, lists become one line
            content = ", ".join(str(c) for c in content)
        return cls(key=str(raw["key"]), type=str(raw.get("type", "notes")), content=str(content),
                   source=str(raw.get("source", "")), created=float(raw.get("created", 0)),
                   updated=float(raw.get("updated", 0)), hits=int(raw.get("hits", 0)),
                   tags=[str(t) for t in raw.get("tags", [])], meta=dict(raw.get("meta", {})),
                   id=str(raw.get("id") or secrets.token_hex(4)))


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


class MemoryFile:
    """One JSON file of entries. Every change re-reads the file under the lock, so none is lost."""

    def __init__(self, path: Path, root: Path | None = None) -> None:
        self.path = path
        self.root = root  # the project folder; path-bound entries are checked against it
        self.warnings: list[str] = []
        self._entries: dict[str, MemoryEntry] | None = None

    @property
    def lock_path(self) -> Path:
        return self.path.with_name(self.path.name + ".lock")

    def entries(self) -> dict[str, MemoryEntry]:
        if self._entries is None:
            self._entries = self._read() if self.path.exists() else {}
        return self._entries

    def change(self, fn: Callable[[dict[str, MemoryEntry]], Any]) -> Any:
        """Apply `fn` to the current entries under the lock and save; returns what `fn` returns."""
        with file_lock(self.lock_path):
            current = self._read() if self.path.exists() else {}
            result = fn(current)
            self._save(current)
            self._entries = current
        return result

    def _read(self) -> dict[str, MemoryEntry]:
        try:
            data = _migrate(json.loads(self.path.read_text(encoding="utf-8")))
            loaded = [MemoryEntry.from_dict(raw) for raw in data["entries"]]
        except (OSError, ValueError, KeyError, TypeError, MemoryFileError) as exc:
            return self._set_aside(exc)
        return {e.key: e for e in loaded if self._still_true(e)}

    def _still_true(self, entry: MemoryEntry) -> bool:
        path = entry.meta.get("path")
        if self.root is None or entry.type not in PATH_TYPES or not path:
            return True
        return (self.root / path).exists()

    def _set_aside(self, exc: Exception) -> dict[str, MemoryEntry]:
        """Keep the unreadable file under a new name and start empty, with a warning."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.corrupt-{stamp}-{secrets.token_hex(2)}")
        try:
            os.replace(self.path, aside)
        except OSError as move_exc:
            raise OSError(f"memory file {self.path} is unreadable ({exc}) and could not be "
                          f"moved aside: {move_exc}") from move_exc
        self.warnings.append(f"memory file {self.path} was unreadable ({str(exc)[:80]}); "
                             f"kept as {aside.name}; starting with empty memory")
        return {}

    def _save(self, entries: dict[str, MemoryEntry]) -> None:
        data = {"version": SCHEMA_VERSION, "entries": [asdict(e) for e in entries.values()]}
        atomic_write(self.path, json.dumps(data, ensure_ascii=False, separators=(",", ":")))


class MemoryStore:
    """The global file and this project's file, addressed by scope."""

    def __init__(self, home: Path, workspace: Path) -> None:
        self.workspace = workspace.expanduser().resolve()
        base = home / "memory"
        self.files = {
            "global": MemoryFile(base / "global.json"),
            "project": MemoryFile(base / "projects" / project_id(self.workspace) / "memory.json",
                                  root=self.workspace),
        }

    def file(self, scope: str) -> MemoryFile:
        if scope not in self.files:
            raise ValueError(f"scope must be one of {', '.join(SCOPES)}, not '{scope}'")
        return self.files[scope]

    def entries(self, scope: str | None = None) -> list[tuple[str, MemoryEntry]]:
        scopes = [scope] if scope else list(SCOPES)
        return [(s, e) for s in scopes for e in self.file(s).entries().values()]

    def take_warnings(self) -> list[str]:
        """Warnings (e.g. a corrupt file set aside) not yet shown; each is returned once."""
        found = [w for f in self.files.values() for w in f.warnings]
        for f in self.files.values():
            f.warnings = []
        return found

    def find(self, ref: str, scope: str | None = None) -> tuple[str, MemoryEntry] | None:
        """An entry by key, id (unique prefix of 4+ characters), or its text as shown in the
        prompt (the "- [type]" prefix allowed; a unique substring or a near-duplicate)."""
        pairs = self.entries(scope)
        ref = ref.strip()
        for s, e in pairs:
            if e.key == ref:
                return s, e
        text = re.sub(r"^-?\s*\[[a-z]+\]\s*", "", ref).lower()
        tests: list[Callable[[MemoryEntry], bool]] = [
            lambda e: len(ref) >= 4 and e.id.startswith(ref),
            lambda e: len(text) >= 6 and text in e.content.lower(),
            lambda e: similarity(text, e.content) >= DUPLICATE_RATIO,
        ]
        for test in tests:
            matches = [(s, e) for s, e in pairs if test(e)]
            if len(matches) == 1:
                return matches[0]
        return None

    def remove(self, scope: str, key: str) -> bool:
        return bool(self.file(scope).change(lambda cur: cur.pop(key, None) is not None))

    def add(self, scope: str, type_: str, content: str, key: str = "",
            tags: Sequence[str] = (), source: str = "") -> tuple[str, MemoryEntry]:
        """Add an entry. The same key, or a near-duplicate content, updates that entry instead."""
        if type_ not in TYPES:
            raise ValueError(f"type must be one of {', '.join(TYPES)}, not '{type_}'")
        content = " ".join(content.split())
        if not content:
            raise ValueError("content is empty")

        def apply(cur: dict[str, MemoryEntry]) -> tuple[str, MemoryEntry]:
            now = time.time()
            old = cur.get(key) if key else near_duplicate(content, list(cur.values()))
            if old is not None:
                old.content, old.type, old.updated = content, type_, now
                old.tags = sorted(set(old.tags) | set(tags))
                old.source = source or old.source
                return "updated", old
            entry = MemoryEntry(key=key or _free_key(cur, content), type=type_, content=content,
                                source=source, created=now, updated=now, tags=sorted(set(tags)))
            cur[entry.key] = entry
            return "added", entry

        return self.file(scope).change(apply)

    def update(self, scope: str, ref: str, content: str | None = None,
               type_: str | None = None, source: str = "") -> MemoryEntry | None:
        """Change an entry found by key or id; None when there is no such entry."""
        found = self.find(ref, scope)
        if found is None:
            return None
        key = found[1].key

        def apply(cur: dict[str, MemoryEntry]) -> MemoryEntry | None:
            entry = cur.get(key)
            if entry is None:
                return None
            if content is not None:
                entry.content = " ".join(content.split())
            if type_ is not None:
                entry.type = type_
            entry.updated, entry.source = time.time(), source or entry.source
            return entry

        return self.file(scope).change(apply)

    def merge(self, scope: str, items: Sequence[MemoryEntry],
              combine: Callable[[MemoryEntry, MemoryEntry], MemoryEntry] | None = None) -> int:
        """Upsert entries by key (the later one wins, or `combine(old, new)`); returns the count."""
        if not items:
            return 0

        def apply(cur: dict[str, MemoryEntry]) -> int:
            for item in items:
                old = cur.get(item.key)
                if old is None:
                    cur[item.key] = item
                    continue
                new = combine(old, item) if combine else item
                new.id, new.created, new.hits = old.id, old.created or new.created, old.hits
                cur[item.key] = new
            return len(items)

        return self.file(scope).change(apply)

    def count_hits(self, scope: str, keys: Sequence[str]) -> None:
        wanted = set(keys)
        if not wanted:
            return

        def apply(cur: dict[str, MemoryEntry]) -> None:
            for key in wanted & cur.keys():
                cur[key].hits += 1

        self.file(scope).change(apply)


def _free_key(cur: dict[str, MemoryEntry], content: str) -> str:
    """A readable key for a note: its first words, made unique."""
    words = tokens(content)[:5] or ["entry"]
    base = "note:" + "-".join(words)[:48]
    key, n = base, 2
    while key in cur:
        key, n = f"{base}-{n}", n + 1
    return key
