"""Ranking memory for a task: 0.7 × BM25 relevance + 0.3 × recency, and near-duplicate tests."""

from __future__ import annotations

import heapq
import math
import re
import time
from bisect import bisect_right
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.memory.entry import MemoryEntry

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
    """What ranking searches: key, content and tags, lower-cased, on one line. Kept on the
    entry until a field changes, so ranking again (the pinned pass, a search) does not redo it."""
    text = entry.text
    if text is None:
        raw = entry.raw or entry.parse()  # plain dict reads keep ranking 10,000 entries fast
        tags = raw.get("tags")
        text = (
            f"{raw['key']} {raw['content']} {' '.join(tags)}"
            if tags
            else f"{raw['key']} {raw['content']}"
        )
        entry.text = text = text.replace("\n", " ").lower()
    return text


def query_terms(query: str) -> list[str]:
    """Distinct search terms: words of 2+ letters/digits and single CJK characters."""
    return sorted({t for t in tokens(query) if len(t) > 1 or t > "\u3000"})


def rank(
    entries: Sequence[MemoryEntry], query: str, k: int = 10, now: float | None = None
) -> list[MemoryEntry]:
    """The k best entries by 0.7 × relevance (BM25, normalised to the best match) + 0.3 ×
    recency (halves every HALF_LIFE_DAYS). Terms match word starts in the lower-cased text
    ("test" finds "tests") with one C-speed `find` scan per term: no index to build or keep."""
    now = time.time() if now is None else now
    n = len(entries)
    relevance = _bm25(entries, query) if n and query.strip() else {}
    best = max(relevance.values(), default=0.0) or 1.0
    decay = math.log(2) / (HALF_LIFE_DAYS * 86400)
    updated = [(e.raw or e.parse())["updated"] for e in entries]
    # Entries no term matched score by recency alone: only the k newest of them can win.
    newest = heapq.nlargest(k + len(relevance), range(n), key=updated.__getitem__)
    candidates = [*relevance, *[i for i in newest if i not in relevance][:k]]

    def score(i: int) -> tuple[float, float]:
        recency = math.exp(-decay * max(0.0, now - updated[i]))
        return RELEVANCE_WEIGHT * relevance.get(i, 0.0) / best + RECENCY_WEIGHT * recency, updated[
            i
        ]

    return [entries[i] for i in heapq.nlargest(k, candidates, key=score)]


def _bm25(entries: Sequence[MemoryEntry], query: str) -> dict[int, float]:
    texts = [e.text or entry_text(e) for e in entries]
    big = "\n".join(texts)
    starts, pos = [], 0
    for text in texts:
        starts.append(pos)
        pos += len(text) + 1
    avg = pos / len(texts)
    scores: dict[int, float] = {}
    for term in query_terms(query):
        tf: dict[int, int] = {}
        at = big.find(term)
        while at != -1:
            if at == 0 or not big[at - 1].isalnum() or term > "\u3000":  # a word's start
                i = bisect_right(starts, at) - 1
                tf[i] = tf.get(i, 0) + 1
            at = big.find(term, at + len(term))
        if not tf:
            continue
        idf = math.log(1 + (len(texts) - len(tf) + 0.5) / (len(tf) + 0.5))
        for i, count in tf.items():
            norm = count + _K1 * (1 - _B + _B * len(texts[i]) / avg)
            scores[i] = scores.get(i, 0.0) + idf * count * (_K1 + 1) / norm
    return scores


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


def near_duplicate(
    content: str, entries: Sequence[MemoryEntry], threshold: float = DUPLICATE_RATIO
) -> MemoryEntry | None:
    """The most similar entry at or above `threshold`, if any."""
    best, best_score = None, threshold
    for entry in entries:
        score = similarity(content, entry.content)
        if score >= best_score:
            best, best_score = entry, score
    return best
