"""A full-text index over memory entries: SQLite FTS5 in memory, BM25 scores, kept in step.

The index holds each entry's search text (key, content, tags; see `entry_text`) under the
porter stemmer, so "migrations" finds "migrate" and "tests" finds "testing". CJK characters
are indexed one by one (a word of its own each, as the character scan did). Each query brings the
index up to a list of entries by identity: compared with the list of the call before (pointer
comparisons at C speed), only entries that are new, replaced or changed in place cost a look, a
changed or new one a row; rows of entries that are gone are skipped at query time and dropped
when they outnumber the live ones. A store's index starts from its cache on disk
(index_cache.py) instead of being built at each session start.
"""

from __future__ import annotations

import operator
import re
import sqlite3
import threading
from collections.abc import Sequence
from itertools import compress, islice
from pathlib import Path

from core.memory.entry import MemoryEntry
from core.memory.index_cache import IndexCache, new_index
from core.memory.ranking import entry_text, query_terms

_CJK = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af])")
_TEXT = operator.attrgetter("text")
NEAR_CANDIDATES = 20  # best BM25 matches checked character by character for a near-duplicate


def _spaced(text: str) -> str:
    """CJK characters as words of their own (the unicode61 tokenizer joins runs of them)."""
    return text if text.isascii() else _CJK.sub(r" \1 ", text)


def match_expression(query: str) -> str:
    """An FTS5 query: any of the query's terms, each as a word prefix."""
    terms = query_terms(_spaced(query))
    return " OR ".join(f'"{t}"*' for t in terms)


class MemoryIndex:
    """BM25 over the search text of entries (one per store; a lock keeps threads apart). Rows
    are keyed by entry identity; rows of entries no longer passed in are skipped, and dropped
    once they outnumber the most entries ever passed in. With a `cache` path the index starts
    from the rows saved there (see IndexCache) and saves itself when many rows were added."""

    def __init__(self, cache: Path | None = None) -> None:
        self.db = new_index()
        self.cache = IndexCache(cache) if cache is not None else None
        # id(entry) -> (entry, rowid); the entry is held so its id cannot be reused by another
        # object while the row exists; id(entry) -> its text when indexed
        self._rows: dict[int, tuple[MemoryEntry, int]] = {}
        self._text_of: dict[int, str] = {}
        self._entry_of: dict[int, MemoryEntry] = {}  # rowid -> entry
        self._unclaimed: dict[str, list[int]] = {}  # cached rows no entry matched: body -> rowids
        self._spare = 0  # how many rows that is
        # the last list synced, and its texts: the next call checks only what differs
        self._last: tuple[list[MemoryEntry], list[str]] = ([], [])
        self._edits = -1  # MemoryEntry.edits at the last call
        self._most = 0  # the most entries one call passed in
        self._added = 0  # rows inserted since the cache was read or saved
        self._next = 1
        self._lock = threading.Lock()
        self._opened = False
        self._from_cache = False  # the rows came from the cache file
        self._tainted = False  # text that left memory may be in it: never saved again

    def scores(
        self, entries: Sequence[MemoryEntry], query: str, limit: int | None = None
    ) -> list[tuple[MemoryEntry, float]]:
        """Those of `entries` matching any term of `query`, best BM25 first (scores > 0),
        at most `limit` of them (all when None)."""
        with self._lock:
            try:
                return self._scores(entries, query, limit)
            except sqlite3.DatabaseError:
                if self.cache is None or not self._from_cache:
                    raise
                self.cache.delete()  # a damaged cache file: build the index from the entries,
                self.db.close()  # which saves a sound one once it is worth it
                self._opened, self._from_cache, self.db = True, False, new_index()
                self._forget()
                self._added = 0
                return self._scores(entries, query, limit)

    def forget_saved(self) -> None:
        """Text left memory: the saved cache may hold it, so it goes now, and this index, which
        may hold it too, is never saved again (see index_cache)."""
        self._tainted = True
        if self.cache is not None:
            self.cache.delete()

    def _scores(
        self, entries: Sequence[MemoryEntry], query: str, limit: int | None
    ) -> list[tuple[MemoryEntry, float]]:
        self._sync(entries)
        expression = match_expression(query)
        if not expression:
            return []
        wanted = set(map(id, entries)) if len(entries) < len(self._rows) else None
        found: list[tuple[MemoryEntry, float]] = []
        fetch = None if limit is None else max(limit * 2, 32)
        offset = 0
        while True:
            sql = "SELECT rowid, -bm25(docs) FROM docs WHERE docs MATCH ? ORDER BY rank"
            params: tuple = (expression,)
            if fetch is not None:
                sql += " LIMIT ? OFFSET ?"
                params = (expression, fetch, offset)
            rows = self.db.execute(sql, params).fetchall()
            for rowid, score in rows:
                entry = self._entry_of.get(rowid)
                if entry is not None and (wanted is None or id(entry) in wanted):
                    found.append((entry, max(score, 1e-9)))
            if limit is None or fetch is None or len(rows) < fetch or len(found) >= limit:
                return found if limit is None else found[:limit]
            offset += fetch
            fetch *= 2

    def candidates(self, entries: Sequence[MemoryEntry], content: str) -> list[MemoryEntry]:
        """Those of `entries` sharing the most (and rarest) words with `content`: what a
        near-duplicate test needs to compare, instead of every entry."""
        return [e for e, _ in self.scores(entries, content, NEAR_CANDIDATES)]

    def _sync(self, entries: Sequence[MemoryEntry]) -> None:
        """Index every entry of `entries` not indexed yet, or whose text changed. Only the
        positions whose entry or text differs from the last call's list are checked (pointer
        comparisons at C speed), so 100,000 entries with one added cost a few ms."""
        if not self._opened:
            self._open()
        last, last_texts = self._last
        size, common = len(entries), min(len(entries), len(last))
        edits, self._edits = self._edits, MemoryEntry.edits
        if common == len(last) and all(map(operator.is_, entries, last)):
            # the last list, perhaps with entries added at its end (the common case): texts
            # are compared only if some entry changed since (one pass), else just the new ones
            texts = [*last_texts, *map(_TEXT, islice(entries, common, None))]
            check = []
            if edits != self._edits:
                now = map(_TEXT, islice(entries, common))
                check = [*compress(range(common), map(operator.is_not, now, last_texts))]
                for i in check:
                    texts[i] = entries[i].text
            check += range(common, size)
        else:
            texts = list(map(_TEXT, entries))
            differ = set(compress(range(common), map(operator.is_not, entries, last)))
            differ.update(compress(range(common), map(operator.is_not, texts, last_texts)))
            check = [*sorted(differ), *range(common, size)]
        if len(check) > size // 4:
            check = list(range(size))
        changed, text_of = [], self._text_of
        for i in check:
            entry, text = entries[i], texts[i]
            if text is None:
                texts[i] = text = entry_text(entry)
            if text_of.get(id(entry)) is not text:
                changed.append((entry, text))
        self._most = max(self._most, size)
        if len(self._rows) + self._spare + len(changed) > 2 * self._most + 1000:
            self._clear()
            changed = [(e, t or entry_text(e)) for e, t in zip(entries, texts, strict=True)]
        if changed:
            self._write(changed)
        self._last = (list(entries), texts)

    def _write(self, changed: list[tuple[MemoryEntry, str]]) -> None:
        gone, added = [], []
        for entry, text in changed:
            key = id(entry)
            known = self._rows.get(key)
            if known is not None:
                if self._text_of[key] == text:  # the same text again: nothing to index
                    self._text_of[key] = text
                    continue
                gone.append((known[1],))
                self._entry_of.pop(known[1], None)
            body = _spaced(text)
            claimed = self._unclaimed.get(body)
            if claimed:  # a row read from the cache holds this text already
                rowid = claimed.pop()
                self._spare -= 1
                if not claimed:
                    del self._unclaimed[body]
            else:
                rowid, self._next = self._next, self._next + 1
                added.append((rowid, body))
            self._rows[key], self._text_of[key] = (entry, rowid), text
            self._entry_of[rowid] = entry
        with self.db:
            self.db.executemany("DELETE FROM docs WHERE rowid = ?", gone)
            self.db.executemany("INSERT INTO docs (rowid, body) VALUES (?, ?)", added)
        self._added += len(added)
        if self._tainted or self.cache is None:
            return
        if self.cache.worth_saving(self._added, len(self._rows)):
            self.cache.save(self.db)
            self._added = 0

    def _open(self) -> None:
        """The rows saved in the cache (none when it is missing, stale or unreadable)."""
        self._opened = True
        loaded = self.cache.load() if self.cache is not None else None
        if loaded is None:
            return
        self.db, rows = loaded
        self._from_cache = True
        for rowid, body in rows:
            self._unclaimed.setdefault(body, []).append(rowid)
        self._spare = self._most = len(rows)  # as many entries as the cache was saved for
        self._next = max((rowid for rowid, _ in rows), default=0) + 1

    def _clear(self) -> None:
        with self.db:
            self.db.execute("DELETE FROM docs")
        self._forget()

    def _forget(self) -> None:
        self._rows, self._text_of, self._entry_of, self._unclaimed = {}, {}, {}, {}
        self._spare, self._last = 0, ([], [])
