"""A full-text index over memory entries: SQLite FTS5 in memory, BM25 scores, kept in step.

The index holds each entry's search text (key, content, tags; see `entry_text`) under the
porter stemmer, so "migrations" finds "migrate" and "tests" finds "testing". CJK characters
are indexed one by one (a word of its own each, as the character scan did). Each query brings the
index up to a list of entries by identity: an entry whose text is unchanged costs a dict
lookup, a changed or new one a row; rows of entries that are gone are skipped at query time
and dropped when they outnumber the live ones.
"""

from __future__ import annotations

import re
import sqlite3
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.memory.ranking import entry_text, query_terms

if TYPE_CHECKING:
    from core.memory.entry import MemoryEntry

_CJK = re.compile(r"([\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af])")
NEAR_CANDIDATES = 20  # best BM25 matches checked character by character for a near-duplicate


def _spaced(text: str) -> str:
    """CJK characters as words of their own (the unicode61 tokenizer joins runs of them)."""
    return text if text.isascii() else _CJK.sub(r" \1 ", text)


def match_expression(query: str) -> str:
    """An FTS5 query: any of the query's terms, each as a word prefix."""
    terms = query_terms(_spaced(query))
    return " OR ".join(f'"{t}"*' for t in terms)


class MemoryIndex:
    """BM25 over the search text of entries (one per store; a lock keeps threads apart). Rows are keyed
    by entry identity; rows of entries no longer passed in are skipped, and dropped once they
    outnumber the most entries ever passed in."""

    def __init__(self) -> None:
        self.db = sqlite3.connect(":memory:", check_same_thread=False)
        self.db.execute("CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='porter unicode61')")
        # id(entry) -> (entry, its text when indexed, rowid); the entry is held so its id
        # cannot be reused by another object while the row exists
        self._rows: dict[int, tuple[MemoryEntry, str, int]] = {}
        self._entry_of: dict[int, MemoryEntry] = {}  # rowid -> entry
        self._most = 0  # the most entries one call passed in
        self._next = 1
        self._lock = threading.Lock()

    def scores(
        self, entries: Sequence[MemoryEntry], query: str, limit: int | None = None
    ) -> list[tuple[MemoryEntry, float]]:
        """Those of `entries` matching any term of `query`, best BM25 first (scores > 0),
        at most `limit` of them (all when None)."""
        with self._lock:
            return self._scores(entries, query, limit)

    def _scores(
        self, entries: Sequence[MemoryEntry], query: str, limit: int | None
    ) -> list[tuple[MemoryEntry, float]]:
        self._sync(entries)
        expression = match_expression(query)
        if not expression:
            return []
        wanted = {id(e) for e in entries} if len(entries) < len(self._rows) else None
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
        """Index every entry of `entries` not indexed yet, or whose text changed."""
        rows, changed = self._rows, []
        for entry in entries:
            text = entry.text or entry_text(entry)
            known = rows.get(id(entry))
            if known is None or known[1] is not text:
                changed.append((entry, text, known))
        self._most = max(self._most, len(entries))
        if len(self._rows) + len(changed) > 2 * self._most + 1000:
            self._clear()
            changed = [(e, e.text or entry_text(e), None) for e in entries]
        if changed:
            self._write(changed)

    def _write(self, changed: list) -> None:
        gone, added = [], []
        for entry, text, known in changed:
            if known is not None:
                gone.append((known[2],))
                self._entry_of.pop(known[2], None)
            rowid, self._next = self._next, self._next + 1
            self._rows[id(entry)] = (entry, text, rowid)
            self._entry_of[rowid] = entry
            added.append((rowid, _spaced(text)))
        with self.db:
            self.db.executemany("DELETE FROM docs WHERE rowid = ?", gone)
            self.db.executemany("INSERT INTO docs (rowid, body) VALUES (?, ?)", added)

    def _clear(self) -> None:
        with self.db:
            self.db.execute("DELETE FROM docs")
        self._rows, self._entry_of = {}, {}
