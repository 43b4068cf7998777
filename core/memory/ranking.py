"""What ranking reads: search text and terms of entries, the ranking weights, and near-duplicate
tests (the ranking itself is `core.memory.search.rank`, over the FTS5 index)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.memory.entry import MemoryEntry

RELEVANCE_WEIGHT = 0.7
RECENCY_WEIGHT = 0.3
HALF_LIFE_DAYS = 14.0
DUPLICATE_RATIO = 0.85
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
