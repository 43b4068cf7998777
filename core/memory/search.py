"""Ranking memory for a task: 0.7 × BM25 relevance (SQLite FTS5) + 0.3 × recency."""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from core.memory.index import MemoryIndex
from core.memory.ranking import HALF_LIFE_DAYS, RECENCY_WEIGHT, RELEVANCE_WEIGHT

if TYPE_CHECKING:
    from core.memory.entry import MemoryEntry


def rank(
    entries: Sequence[MemoryEntry],
    query: str,
    k: int = 10,
    now: float | None = None,
    index: MemoryIndex | None = None,
) -> list[MemoryEntry]:
    """The k best entries by 0.7 × relevance (BM25 over FTS5, normalised to the best match) +
    0.3 × recency (halves every HALF_LIFE_DAYS). `index` is synced to `entries` first (a store
    keeps one, so ranking again costs a lookup per entry); without it one is built."""
    now = time.time() if now is None else now
    if not entries:
        return []
    if index is None:
        index = MemoryIndex()
    decay = math.log(2) / (HALF_LIFE_DAYS * 86400)

    def updated(entry: MemoryEntry) -> float:
        return (entry.raw or entry.parse())["updated"]

    def recency(entry: MemoryEntry) -> float:
        return math.exp(-decay * max(0.0, now - updated(entry)))

    matched = index.scores(entries, query) if query.strip() else []
    best = matched[0][1] if matched else 1.0
    relevance = {id(e): score / best for e, score in matched}
    # Entries no term matched score by recency alone: only the k newest of them can win.
    newest = heapq.nlargest(k + len(relevance), entries, key=updated)
    candidates = [e for e, _ in matched] + [e for e in newest if id(e) not in relevance][:k]

    def score(entry: MemoryEntry) -> tuple[float, float]:
        mix = RELEVANCE_WEIGHT * relevance.get(id(entry), 0.0) + RECENCY_WEIGHT * recency(entry)
        return mix, updated(entry)

    return heapq.nlargest(k, candidates, key=score)
