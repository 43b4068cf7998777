"""One memory JSON file: typed entries, atomic writes under a file lock, corrupt files set aside.

Layout: one entry per line inside a JSON array, so a save re-encodes only the entries that
changed and reuses the stored line of every other one.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
PATH_TYPES = ("files", "conventions")  # entries about one file; dropped when it disappears
_HEAD = f'{{"version":{SCHEMA_VERSION},"entries":['.encode()
_TAIL = b"]}"


def _field(name: str, default: Any = None, fresh: type | None = None) -> property:
    """An attribute stored in the entry's JSON object; setting it marks the entry changed."""

    def get(self: MemoryEntry) -> Any:
        value = (self.raw or self.parse()).get(name, default)
        return fresh() if value is None and fresh else value

    def set(self: MemoryEntry, value: Any) -> None:
        (self.raw or self.parse())[name] = value
        self.dirty, self.text = True, None

    return property(get, set)


def _head(index: int) -> property:
    """key or type: known from the line's start before the line is parsed."""

    def get(self: MemoryEntry) -> Any:
        return self.raw[("key", "type")[index]] if self.raw is not None else self.head[index]

    def set(self: MemoryEntry, value: Any) -> None:
        (self.raw or self.parse())[("key", "type")[index]] = value
        self.dirty, self.text = True, None

    return property(get, set)


class MemoryEntry:
    """One entry, held as the JSON object it is stored as: a load wraps the parsed objects
    without copying, and a save re-encodes only entries a change marked dirty. Unknown fields
    (from a newer Unicum) are kept. An entry read from a file in our layout starts unparsed
    (`raw` None, `head` = key, type and path from the line's start) and parses its line on
    first use; a line that turns out unreadable marks the entry `broken` (see memory_layout)."""

    __slots__ = ("raw", "dirty", "line", "head", "text", "broken")
    raw: dict[str, Any] | None
    head: tuple[str, ...]

    key = _head(0)  # unique within its file: "file:src/app.py", "command:test:pytest", ...
    type = _head(1)  # one of TYPES
    content = _field("content")  # one line of text
    id = _field("id")
    source = _field("source", "")  # the session that wrote it
    created = _field("created", 0.0)  # epoch seconds
    updated = _field("updated", 0.0)
    hits = _field("hits", 0)  # how often it was injected into a prompt
    tags = _field("tags", fresh=list)
    meta = _field("meta", fresh=dict)  # structured fields (path, lines, command, ...)

    def __init__(
        self,
        key: str,
        type: str,
        content: str,
        source: str = "",
        created: float = 0.0,
        updated: float = 0.0,
        hits: int = 0,
        tags: list[str] | None = None,
        meta: dict[str, Any] | None = None,
        id: str = "",
    ) -> None:
        raw: dict[str, Any] = {
            "key": key,
            "type": type,
            "content": content,
            "id": id or os.urandom(4).hex(),
            "created": created,
            "updated": updated,
        }
        if source:
            raw["source"] = source
        if hits:
            raw["hits"] = hits
        if tags:
            raw["tags"] = list(tags)
        if meta:
            raw["meta"] = dict(meta)
        self.raw, self.dirty, self.line = raw, True, b""
        self.head, self.text, self.broken = (key, type, ""), None, False

    def parse(self) -> dict[str, Any]:
        """The stored object, parsing the line now if needed (an unreadable one: see adopt)."""
        if self.raw is None:
            try:
                value: Any = json.loads(self.line.decode("utf-8"))
            except ValueError:
                value = None
            self.adopt(value)
        assert self.raw is not None
        return self.raw

    def adopt(self, value: Any) -> bool:
        """Take `value` as this entry's parsed line if it is a readable entry that agrees with
        the line's start; otherwise mark the entry broken (its line is set aside at the next
        save) and give it a harmless empty object. True when adopted."""
        key, kind, path = self.head
        if (
            _well_formed(value)
            and value["key"] == key
            and value["type"] == kind
            and (not path or (value.get("meta") or {}).get("path") == path)
        ):
            self.raw = value  # the common case, kept cheap: parse_all calls this 10,000 times
            return True
        try:
            entry = MemoryEntry.from_dict(value, self.line)  # repaired, if it can be
            agrees = (
                entry.key == key
                and entry.type == kind
                and (not path or entry.meta.get("path") == path)
            )
        except (ValueError, KeyError, TypeError, AttributeError):
            agrees = False
        if not agrees:
            self.raw, self.broken = (
                {
                    "key": key,
                    "type": kind,
                    "content": "",
                    "id": os.urandom(4).hex(),
                    "updated": 0.0,
                },
                True,
            )
            return False
        self.raw, self.dirty = entry.raw, True
        return True

    def __repr__(self) -> str:
        return f"MemoryEntry({(self.raw or self.parse())!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MemoryEntry) and other.parse() == self.parse()

    __hash__ = None  # type: ignore[assignment]

    @classmethod
    def from_dict(cls, raw: Any, line: bytes = b"") -> MemoryEntry:
        """Wrap a stored object as is when it is well-formed; otherwise rebuild it carefully."""
        if _well_formed(raw):
            entry = cls.__new__(cls)
            entry.raw, entry.dirty, entry.line = raw, False, line
            entry.head, entry.text, entry.broken = (raw["key"], raw["type"], ""), None, False
            return entry
        return cls._coerce(raw)

    @classmethod
    def _coerce(cls, raw: dict[str, Any]) -> MemoryEntry:
        content = raw.get("content", "")
        if isinstance(content, list):  # single values stay one line, lists become one line
            content = ", ".join(str(c) for c in content)
        meta = {
            str(k): v
            for k, v in dict(raw.get("meta") or {}).items()
            if k not in _TEXT_META or isinstance(v, str)
        }
        return cls(
            key=str(raw["key"]),
            type=str(raw.get("type", "notes")),
            content=str(content),
            source=str(raw.get("source", "")),
            created=float(raw.get("created", 0)),
            updated=float(raw.get("updated", 0)),
            hits=int(raw.get("hits", 0)),
            tags=[str(t) for t in raw.get("tags") or []],
            meta=meta,
            id=str(raw.get("id") or ""),
        )

    def to_dict(self) -> dict[str, Any]:
        return self.raw or self.parse()


class StoredEntry(MemoryEntry):
    """An entry read from a line of a file in our layout, not parsed yet: `head` is the key,
    type and file path read from the line's start; any other field parses the line."""

    __slots__ = ()

    def __init__(self, line: bytes, head: tuple[str, str, str]) -> None:
        """The line as stored, and key, type, path (kept cheap: 10,000 per load)."""
        self.raw = None
        self.dirty = False
        self.line = line
        self.head = head
        self.text = None
        self.broken = False


_NUMBER = (float, int)
_TEXT_META = ("path", "command")  # meta fields the rules read as text


def _well_formed(raw: Any) -> bool:
    """Every field the code relies on has its type, so nothing downstream trips on a file
    edited by hand (checked per entry at load: keep it cheap)."""
    if type(raw) is not dict:
        return False
    get = raw.get
    if not (
        type(get("key")) is str
        and type(get("content")) is str
        and type(get("type")) is str
        and type(get("id")) is str
        and type(get("updated")) in _NUMBER
        and type(get("created", 0.0)) in _NUMBER
        and type(get("hits", 0)) is int
        and type(get("source", "")) is str
    ):
        return False
    tags, meta = get("tags"), get("meta")
    if tags is not None:
        if type(tags) is not list:
            return False
        try:
            "".join(tags)  # strings only (JSON gives no subclasses), checked at C speed
        except TypeError:
            return False
    return meta is None or (
        type(meta) is dict
        and type(meta.get("path", "")) is str
        and type(meta.get("command", "")) is str
    )  # _TEXT_META


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


def atomic_write(path: Path, data: bytes) -> None:
    """Temp file in the same folder, fsync, rename: readers see the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


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
        from core.memory_layout import parse_all

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
        from core.memory_layout import set_aside_lines

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
        from core.memory_layout import read_layout

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
        from core.memory_layout import encode

        for entry in entries.values():
            if entry.dirty or not entry.line:
                entry.line = encode(entry.raw or entry.parse())
                entry.dirty = False
        body = b",\n".join([e.line for e in entries.values()])
        atomic_write(self.path, b"%s\n%s\n%s\n" % (_HEAD, body, _TAIL))
        self._seen = self._signature()
