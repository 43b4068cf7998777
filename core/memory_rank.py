"""Ranking memory for a task: 0.7 × BM25 relevance + 0.3 × recency, and near-duplicate tests."""

from __future__ import annotations

import heapq
import math
import re
import time
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.memory_store import MemoryEntry

RELEVANCE_WEIGHT = 0.7
RECENCY_WEIGHT = 0.3
HALF_LIFE_DAYS = 14.0
DUPLICATE_RATIO = 0.85
_K1, _B = 1.2, 0.75
# Words of letters/digits (split on _ . / - too); each CJK character is a token of its own.
_TOKEN = re.compile(r"[a-z0-9]+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_STOP = frozenset("a an and the to of in on for is it this that with be as at by or from".split())


def tokens(text: str) -> list[str]:
    return [t for t in _TOKEN.findall(text.lower()) if t not in _STOP]


def entry_text(entry: MemoryEntry) -> str:
    return f"{entry.key} {entry.content} {' '.join(entry.tags)}"


class MemoryIndex:
    """BM25 over a fixed list of entries; build once per load, query many times."""

    def __init__(self, entries: Sequence[MemoryEntry]) -> None:
        self.entries = list(entries)
        self.postings: dict[str, list[tuple[int, int]]] = {}
        self.lengths: list[int] = []
        for i, entry in enumerate(self.entries):
            counts = Counter(tokens(entry_text(entry)))
            self.lengths.append(sum(counts.values()))
            for term, tf in counts.items():
                self.postings.setdefault(term, []).append((i, tf))
        self.avg_len = (sum(self.lengths) / len(self.lengths)) if self.lengths else 1.0

    def bm25(self, query: str) -> dict[int, float]:
        n = len(self.entries)
        scores: dict[int, float] = {}
        for term in set(tokens(query)):
            posting = self.postings.get(term)
            if not posting:
                continue
            idf = math.log(1 + (n - len(posting) + 0.5) / (len(posting) + 0.5))
            for i, tf in posting:
                norm = tf + _K1 * (1 - _B + _B * self.lengths[i] / self.avg_len)
                scores[i] = scores.get(i, 0.0) + idf * tf * (_K1 + 1) / norm
        return scores

    def top(self, query: str, k: int = 10, now: float | None = None) -> list[MemoryEntry]:
        """The k best entries for `query`, by 0.7 × relevance + 0.3 × recency."""
        now = time.time() if now is None else now
        relevance = self.bm25(query)
        best = max(relevance.values(), default=0.0) or 1.0
        decay = math.log(2) / (HALF_LIFE_DAYS * 86400)

        def score(i: int) -> tuple[float, float]:
            entry = self.entries[i]
            recency = math.exp(-decay * max(0.0, now - entry.updated))
            rel = relevance.get(i, 0.0) / best
            return RELEVANCE_WEIGHT * rel + RECENCY_WEIGHT * recency, entry.updated

        picked = heapq.nlargest(k, range(len(self.entries)), key=score)
        return [self.entries[i] for i in picked]


def rank(entries: Sequence[MemoryEntry], query: str, k: int = 10,
         now: float | None = None) -> list[MemoryEntry]:
    return MemoryIndex(entries).top(query, k, now)


def _normal(text: str) -> str:
    return " ".join(text.lower().split()).strip(" .!;,。！；，")


def similarity(a: str, b: str) -> float:
    """0..1: how nearly the same two memory texts are (character-level, case/space-blind)."""
    x, y = _normal(a), _normal(b)
    if x == y:
        return 1.0
    matcher = SequenceMatcher(None, x, y, autojunk=False)
    if matcher.real_quick_ratio() < DUPLICATE_RATIO or matcher.quick_ratio() < DUPLICATE_RATIO:
        return 0.0
    return matcher.ratio()


def near_duplicate(content: str, entries: Sequence[MemoryEntry],
                   threshold: float = DUPLICATE_RATIO) -> MemoryEntry | None:
    """The most similar entry at or above `threshold`, if any."""
    best, best_score = None, threshold
    for entry in entries:
        score = similarity(content, entry.content)
        if score >= best_score:
            best, best_score = entry, score
    return best
