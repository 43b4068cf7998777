"""Memory for a session: the global file and this project's file, and edits to their entries."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from core.memory.entry import PATH_TYPES, MemoryEntry
from core.memory.file import SCHEMA_VERSION, MemoryFile
from core.memory.index import MemoryIndex
from core.memory.ranking import DUPLICATE_RATIO, near_duplicate, similarity
from core.memory.search import rank
from my_agent.capped import CONFIG, read_capped_text
from my_agent.files import atomic_write, file_lock
from my_agent.home import project_id

__all__ = [
    "PATH_TYPES",
    "SCHEMA_VERSION",
    "SCOPES",
    "TYPES",
    "MemoryEntry",
    "MemoryFile",
    "MemoryStore",
]
SCOPES = ("project", "global")
INDEX_CACHE = "index.sqlite"  # the memory index saved between sessions (index_cache.py)
STATE_NAME = "consolidation.json"  # sessions counted for consolidation, next to memory.json
TYPES = ("user", "feedback", "project", "reference", "files", "commands", "conventions", "notes")


class MemoryStore:
    """The global file and this project's file, addressed by scope."""

    def __init__(self, home: Path, workspace: Path) -> None:
        self.home = home
        self.workspace = workspace.expanduser().resolve()
        base = home / "memory"
        folder = base / "projects" / project_id(self.workspace)
        self.files = {
            "global": MemoryFile(base / "global.json"),
            "project": MemoryFile(folder / "memory.json", root=self.workspace),
        }
        # BM25 over the entries of both files, kept in step, saved between sessions
        self.index = MemoryIndex(cache=folder / INDEX_CACHE)

    def file(self, scope: str) -> MemoryFile:
        if scope not in self.files:
            raise ValueError(f"scope must be one of {', '.join(SCOPES)}, not '{scope}'")
        return self.files[scope]

    def entries(self, scope: str | None = None) -> list[tuple[str, MemoryEntry]]:
        scopes = [scope] if scope else list(SCOPES)
        return [(s, e) for s in scopes for e in self.file(s).entries().values()]

    def search(
        self, query: str, scope: str | None = None, k: int = 10
    ) -> list[tuple[str, MemoryEntry]]:
        """The `k` entries ranked best for `query` (BM25 relevance and recency)."""
        pairs = self.entries(scope)
        scope_of = {id(e): s for s, e in pairs}
        return [(scope_of[id(e)], e) for e in self.rank([e for _, e in pairs], query, k=k)]

    def rank(self, entries: Sequence[MemoryEntry], query: str, k: int = 10) -> list[MemoryEntry]:
        """`rank` over this store's index (kept between calls: ranking again is cheap)."""
        return rank(entries, query, k=k, index=self.index)

    def count_session(self, session_end: bool, now: float) -> tuple[int, float]:
        """Sessions counted for this project's consolidation (one more at a session end) and
        when it last ran (0.0: never); records this run."""
        path = self.file("project").path.with_name(STATE_NAME)
        with file_lock(path.with_name(STATE_NAME + ".lock")):
            try:
                data = json.loads(read_capped_text(path, CONFIG))
                sessions, last = int(data["sessions"]), float(data["last"])
            except (OSError, ValueError, KeyError, TypeError):
                sessions, last = 0, 0.0
            sessions += 1 if session_end else 0
            atomic_write(path, json.dumps({"sessions": sessions, "last": now}).encode())
        return sessions, last

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
            lambda e: len(text) >= 3 and text in e.content.lower(),
        ]
        for test in tests:
            matches = [(s, e) for s, e in pairs if test(e)]
            if len(matches) == 1:
                return matches[0]
        near = {id(e) for e in self.index.candidates([e for _, e in pairs], text)}
        matches = [
            (s, e)
            for s, e in pairs
            if id(e) in near and similarity(text, e.content) >= DUPLICATE_RATIO
        ]
        return matches[0] if len(matches) == 1 else None

    def remove(self, scope: str, key: str) -> bool:
        removed = bool(self.file(scope).change(lambda cur: cur.pop(key, None) is not None))
        if removed:
            self.index.forget_saved()  # its text must not outlive it in the index cache
        return removed

    def add(
        self,
        scope: str,
        type_: str,
        content: str,
        key: str = "",
        tags: Sequence[str] = (),
        source: str = "",
    ) -> tuple[str, MemoryEntry]:
        """Add an entry. The same key, or a near-duplicate content, updates that entry instead."""
        if type_ not in TYPES:
            raise ValueError(f"type must be one of {', '.join(TYPES)}, not '{type_}'")
        content = " ".join(content.split())
        if not content:
            raise ValueError("content is empty")

        def apply(cur: dict[str, MemoryEntry]) -> tuple[str, MemoryEntry]:
            now = time.time()
            old = cur.get(key) if key else self.near_duplicate(content, list(cur.values()))
            if old is not None:
                if old.content != content:
                    self.index.forget_saved()  # the old text must not outlive it in the cache
                old.content, old.type, old.updated = content, type_, now
                old.tags = sorted(set(old.tags) | set(tags))
                old.source = source or old.source
                return "updated", old
            entry = MemoryEntry(
                key=key or _free_key(cur, content),
                type=type_,
                content=content,
                source=source,
                created=now,
                updated=now,
                tags=sorted(set(tags)),
                meta={"own_key": True} if key else None,  # never merged away
            )
            cur[entry.key] = entry
            return "added", entry

        return self.file(scope).change(apply)

    def near_duplicate(self, content: str, entries: list[MemoryEntry]) -> MemoryEntry | None:
        """The entry nearly the same as `content`, among the few the index finds closest."""
        return near_duplicate(content, self.index.candidates(entries, content))

    def update(
        self,
        scope: str,
        ref: str,
        content: str | None = None,
        type_: str | None = None,
        source: str = "",
    ) -> MemoryEntry | None:
        """Change an entry found by key or id; None when there is no such entry."""
        found = self.find(ref, scope)
        if found is None:
            return None
        key = found[1].key

        def apply(cur: dict[str, MemoryEntry]) -> MemoryEntry | None:
            entry = cur.get(key)
            if entry is None:
                return None
            if content is not None and " ".join(content.split()) != entry.content:
                entry.content = " ".join(content.split())
                self.index.forget_saved()  # the old text must not outlive it in the cache
            if type_ is not None:
                entry.type = type_
            entry.updated, entry.source = time.time(), source or entry.source
            return entry

        return self.file(scope).change(apply)

    def merge(
        self,
        scope: str,
        items: Sequence[MemoryEntry],
        combine: Callable[[MemoryEntry, MemoryEntry], MemoryEntry] | None = None,
    ) -> int:
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
    words = re.findall(r"\w+", content.lower())[:5] or ["entry"]
    base = "note:" + "-".join(words)[:48]
    key, n = base, 2
    while key in cur:
        key, n = f"{base}-{n}", n + 1
    return key
