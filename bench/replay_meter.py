"""What one replayed request costs: raw tokens and cache-billed tokens per provider family, with
the caches modelled where the product really places them, and which references it shows."""

from __future__ import annotations

from dataclasses import dataclass, field

from bench.replay_metrics import (
    ANTHROPIC,
    FAMILIES,
    OPENAI,
    Pricing,
    Provenance,
    Shown,
    Tally,
    price,
    shown,
)
from my_agent.messages import Message, message_text

CACHE_TTL = 300.0  # seconds of idle after which a provider's prompt cache has expired
LOOKBACK = 20  # blocks Anthropic looks back from a breakpoint for an earlier cache entry
FIXED = 0  # the cache key of the fixed prompt alone (tools and system)


def breakpoints(roles: list[str]) -> list[int]:
    """Where the Anthropic wire puts its message breakpoints (core/model/anthropic_wire.py):
    the last block of the newest two user turns (a run of user messages is one wire turn).
    The tools and the system text carry the other two (the fixed prompt, `FIXED`)."""
    ends = [
        i for i, role in enumerate(roles) if role == "user" and roles[i + 1 : i + 2] != ["user"]
    ]
    return ends[-2:]


@dataclass
class AnthropicCache:
    """Cache entries written at each request's breakpoints; a request reads the longest entry
    that is still a prefix of it, found within `LOOKBACK` blocks before one of its own
    breakpoints, and not idle for `CACHE_TTL` (a read refreshes it)."""

    entries: dict[object, float] = field(default_factory=dict)  # prefix key -> last used

    def read(
        self, keys: list[object], sums: list[int], blocks: list[int], roles: list[str], when: float
    ) -> int:
        """Cached tokens of this request (fixed prompt included: `sums[0]`), then write its
        breakpoints. `keys[i]`, `sums[i]`: the key and tokens of the prefix through message
        i - 1 (`keys[0]` the fixed prompt alone)."""
        marks = [i + 1 for i in breakpoints(roles)]
        best = sums[0] if self._fresh(FIXED, when) else 0
        hit = [FIXED] if best else []
        for mark in marks:
            span, j = 0, mark
            while j > 0 and span <= LOOKBACK:
                if sums[j] > best and self._fresh(keys[j], when):
                    best, hit = sums[j], [keys[j]]
                    break
                span += blocks[j - 1]
                j -= 1
        for key in [*hit, FIXED, *(keys[m] for m in marks)]:
            self.entries[key] = when
        return best

    def _fresh(self, key: object, when: float) -> bool:
        used = self.entries.get(key)
        return used is not None and (not when or not used or when - used <= CACHE_TTL)


@dataclass
class Meter:
    """Counts requests of one policy over one recording, with memoized per-message views."""

    fixed_tokens: int  # system prompt + tool schemas: sent first in every request (raw)
    wire_fixed: dict[str, int] = field(default_factory=dict)  # family -> its wire's, if other
    tally: Tally = field(default_factory=Tally)
    previous: list[str] = field(default_factory=list)
    previous_time: float = 0.0
    present: set[str] = field(default_factory=set)  # the last request's message texts
    anthropic: AnthropicCache = field(default_factory=AnthropicCache)
    _shown: dict[str, Shown] = field(default_factory=dict)
    _lines: dict[str, list[str]] = field(default_factory=dict)  # line -> texts showing it

    def view(self, msg: Message, text: str) -> Shown:
        if text not in self._shown:
            self._shown[text] = view = shown(msg)
            for line in view.lines:
                self._lines.setdefault(line, []).append(text)
        return self._shown[text]

    def sees(self, ref: str, origin: Provenance) -> bool:
        """Kept only when the text of a line it came from is visible in the last request (an
        index of names, a `file:line` stand-in, does not show the line)."""
        for source in origin.sources.get(ref, ()):
            if any(t in self.present for t in self._lines.get(source.line, ())):
                return True
        return False

    def shows(self, call_id: str, origin: Provenance) -> bool:
        """Some line of that output is visible (an empty output needs nothing)."""
        lines = origin.lines.get(call_id, ())
        return not lines or any(
            t in self.present for line in lines for t in self._lines.get(line, ())
        )

    def request(self, messages: list[Message], when: float = 0.0, recall: bool = False) -> None:
        """One request; `recall`: one the model sends only to get back what was thrown away
        (its bill is also kept apart)."""
        texts = [message_text(m) for m in messages]
        views = [self.view(m, t) for m, t in zip(messages, texts, strict=True)]
        self.present = set(texts)
        sums, keys = [self.fixed_tokens], [FIXED]
        for text, view in zip(texts, views, strict=True):
            sums.append(sums[-1] + view.tokens)
            keys.append((keys[-1], text))
        total = sums[-1]
        blocks = [len(m.blocks) for m in messages]
        cached = self.anthropic.read(keys, sums, blocks, [m.role for m in messages], when)
        prefixes = {ANTHROPIC.name: cached, OPENAI.name: self._openai_prefix(texts, sums, when)}
        billed = {f.name: self._bill(f, total, prefixes[f.name]) for f in FAMILIES}
        self.tally.requests += 1
        self.tally.raw += total
        self.tally.fresh += total - cached
        for family in FAMILIES:
            self.tally.billed[family.name] += billed[family.name]
            if recall:
                self.tally.recall_billed[family.name] += billed[family.name]
        self.tally.peak = max(self.tally.peak, total)
        self.previous, self.previous_time = texts, when or self.previous_time

    def _bill(self, family: Pricing, total: int, prefix: int) -> float:
        """The family's bill, its own wire's fixed prompt in place of `fixed_tokens` (every
        cached prefix starts with the fixed prompt)."""
        shift = self.wire_fixed.get(family.name, self.fixed_tokens) - self.fixed_tokens
        return price(family, total + shift, prefix + shift if prefix else 0)

    def _openai_prefix(self, texts: list[str], sums: list[int], when: float) -> int:
        """Automatic prefix caching: what this request shares with the previous one."""
        expired = bool(when and self.previous_time and when - self.previous_time > CACHE_TTL)
        if expired or not self.previous:
            return 0
        same = 0
        while same < min(len(texts), len(self.previous)) and texts[same] == self.previous[same]:
            same += 1
        return sums[same]

    def missing(self, needed: set[str], origin: Provenance) -> set[str]:
        """The references the recorded call uses that the last request did not show; counted."""
        gone = {r for r in needed if not self.sees(r, origin)}
        self.tally.refs_needed += len(needed)
        self.tally.refs_seen += len(needed) - len(gone)
        return gone
