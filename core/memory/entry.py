"""One memory entry: typed fields over the stored JSON object, parsed only when touched."""

from __future__ import annotations

import json
import os
import time
from typing import Any

PATH_TYPES = ("files", "conventions")  # entries about one file; dropped when it disappears


def _field(name: str, default: Any = None, fresh: type | None = None) -> property:
    """An attribute stored in the entry's JSON object; setting it marks the entry changed."""

    def get(self: MemoryEntry) -> Any:
        value = (self.raw or self.parse()).get(name, default)
        return fresh() if value is None and fresh else value

    def set(self: MemoryEntry, value: Any) -> None:
        (self.raw or self.parse())[name] = value
        self.dirty, self.text = True, None
        MemoryEntry.edits += 1

    return property(get, set)


def _head(index: int) -> property:
    """key or type: known from the line's start before the line is parsed."""

    def get(self: MemoryEntry) -> Any:
        return self.raw[("key", "type")[index]] if self.raw is not None else self.head[index]

    def set(self: MemoryEntry, value: Any) -> None:
        (self.raw or self.parse())[("key", "type")[index]] = value
        self.dirty, self.text = True, None
        MemoryEntry.edits += 1

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
    # Field changes so far, all entries together: unchanged since a look at a list of entries,
    # none of them changed in place (how the index and a save skip comparing each entry).
    edits = 0

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


def entry_rows(scope: str, e: MemoryEntry) -> list[tuple[str, str]]:
    """An entry as (field, text) rows, as `memory show` prints it (CLI and REPL alike)."""

    def when(stamp: float) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(stamp)) if stamp else "-"

    rows = [
        ("key", e.key),
        ("id", e.id),
        ("scope", scope),
        ("type", e.type),
        ("content", e.content),
        ("tags", ", ".join(e.tags) or "-"),
        ("source", e.source or "-"),
        ("created", when(e.created)),
        ("updated", when(e.updated)),
        ("hits", str(e.hits)),
    ]
    author = e.to_dict().get("author")  # entries of the team's memory
    rows += [("author", str(author))] if author else []
    return rows + [(f"meta.{k}", str(v)) for k, v in e.meta.items()]
