"""Ranking quality on the labelled set (bench/memory_labels.py): precision@5 of the ranking
before (BM25 by a character scan of word starts, as it was) and after (BM25 over FTS5)."""

from __future__ import annotations

import heapq
import math
import random
import re
import time
from bisect import bisect_right
from collections.abc import Callable, Sequence

from bench.memory_labels import ENTRIES, QUERIES
from core.memory import MemoryEntry, rank

RELEVANCE_WEIGHT, RECENCY_WEIGHT, HALF_LIFE_DAYS = 0.7, 0.3, 14.0
_K1, _B = 1.2, 0.75
Ranker = Callable[[Sequence[MemoryEntry], str, int, float], list[MemoryEntry]]


def labelled_entries(now: float) -> list[MemoryEntry]:
    """The labelled memory, written over the last 60 days (a fixed seed: the same each run)."""
    rng = random.Random(18)
    entries = []
    for key, kind, content in ENTRIES:
        stamp = now - rng.uniform(0, 60) * 86400
        entries.append(MemoryEntry(key, kind, content, created=stamp, updated=stamp))
    return entries


def precision_at_5(ranker: Ranker, now: float) -> tuple[float, list[tuple[str, float]]]:
    """Mean over the queries of |top 5 ∩ relevant| / min(5, |relevant|), and each query's."""
    entries = labelled_entries(now)
    each = []
    for query, relevant in QUERIES:
        top = [e.key for e in ranker(entries, query, 5, now)]
        each.append((query, len(set(top) & relevant) / min(5, len(relevant))))
    return sum(p for _, p in each) / len(each), each


def after(entries: Sequence[MemoryEntry], query: str, k: int, now: float) -> list[MemoryEntry]:
    return rank(entries, query, k=k, now=now)


# --- the ranking this replaced, kept here for the before figure ------------------------------
def before(entries: Sequence[MemoryEntry], query: str, k: int, now: float) -> list[MemoryEntry]:
    """BM25 by one `find` scan per term over the lower-cased texts (word starts), as it was."""
    n = len(entries)
    texts = [f"{e.key} {e.content} {' '.join(e.tags)}".lower() for e in entries]
    relevance = _scan_bm25(texts, query) if n and query.strip() else {}
    best = max(relevance.values(), default=0.0) or 1.0
    decay = math.log(2) / (HALF_LIFE_DAYS * 86400)
    updated = [e.updated for e in entries]
    newest = heapq.nlargest(k + len(relevance), range(n), key=updated.__getitem__)
    candidates = [*relevance, *[i for i in newest if i not in relevance][:k]]

    def score(i: int) -> tuple[float, float]:
        recency = math.exp(-decay * max(0.0, now - updated[i]))
        mix = RELEVANCE_WEIGHT * relevance.get(i, 0.0) / best + RECENCY_WEIGHT * recency
        return mix, updated[i]

    return [entries[i] for i in heapq.nlargest(k, candidates, key=score)]


_TOKEN = re.compile(r"[a-z0-9]+|[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")
_STOP = frozenset("a an and the to of in on for is it this that with be as at by or from".split())


def query_terms(query: str) -> list[str]:
    words = [t for t in _TOKEN.findall(query.lower()) if t not in _STOP]
    return sorted({t for t in words if len(t) > 1 or t > "\u3000"})


def _scan_bm25(texts: list[str], query: str) -> dict[int, float]:
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
            if at == 0 or not big[at - 1].isalnum() or term > "\u3000":
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


def report(verbose: bool = False) -> None:
    now = time.time()
    old, old_each = precision_at_5(before, now)
    new, new_each = precision_at_5(after, now)
    print(
        f"ranking quality: {len(QUERIES)} labelled queries over {len(ENTRIES)} entries, "
        f"precision@5 (hits / min(5, relevant)): before {old:.3f}, after {new:.3f}"
    )
    if verbose:
        for (query, p_old), (_, p_new) in zip(old_each, new_each, strict=True):
            print(f"  {p_old:.2f} -> {p_new:.2f}  {query}")


if __name__ == "__main__":
    import sys

    report(verbose="-v" in sys.argv)
