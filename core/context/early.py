"""Decisions taken before any compaction event, each once, when a newer turn follows: nothing
was cached after the rewritten part yet, so a rewrite costs only the short line sent instead.

- Outputs a later step rarely needs (test and build logs, write receipts, long program runs,
  broad searches) become their one-line fact. Measured with bench/replay.py on the tune half:
  such outputs were a fifth of what requests carried and gave under a tenth of the references
  later calls used. Failures stay whole: they are what the work is about.
- An output whose call runs again (the same command, the same view) becomes its line, when
  the tokens saved pay for re-sending what came after it.
- The model's longer notes beside its tool calls shorten to their opening, on the same rule.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping
from dataclasses import dataclass
from typing import Protocol

from core.context.compaction import archived_line
from my_agent.facts import Fact
from my_agent.messages import Message, TextBlock

EARLY_KINDS = ("run", "test", "build", "write", "search")
# Kinds whose shorter outputs stay whole: a program's values and a narrow search's hits are
# what later commands reuse; a long log or a broad search is skimmed once. A write's receipt
# is a few tokens: a longer "write" output is a program run in the same command.
KEEP_UP_TO = (("run", 800), ("write", 800), ("search", 1000))


@dataclass(frozen=True)
class EarlyRules:
    kinds: tuple[str, ...] = EARLY_KINDS
    age: int = 1  # turns of newer results before an output is decided
    keep_up_to: tuple[tuple[str, int], ...] = KEEP_UP_TO
    keep_failures: bool = True
    superseded: bool = True
    note_chars: int = 300  # notes longer than this (and 40 more) shorten to it; 0: never


class Costs(Protocol):
    """What the policy prices a rewrite with."""

    count: Callable[[str], int]

    def pays(self, saved: int, resent: int, turns: int) -> bool: ...

    def message_tokens(self, msg: Message) -> int: ...

    def short_note(self, text: str) -> str: ...


class EarlyDecisions:
    """`lines`: call id -> the line shown instead of its output; `texts`: note -> its opening.
    Neither changes back, so the prefix stays cached."""

    def __init__(self, rules: EarlyRules, costs: Costs) -> None:
        self.rules, self.costs = rules, costs
        self.lines: dict[str, str] = {}
        self.texts: dict[str, str] = {}
        self._decided: set[str] = set()
        self._notes_at = 0  # history index the next pass over notes starts from

    def update(
        self,
        history: list[Message],
        facts: Mapping[str, Fact],
        sizes: Mapping[str, int],
        keys: Mapping[str, tuple[str, str]],
        archived: Container[str],
    ) -> None:
        """`sizes`: each output's tokens as sent; `keys`: its call's (name, arguments);
        `archived`: outputs an event already replaced or a later repeat points at."""
        self._outputs(history, facts, sizes, archived)
        self._superseded(history, facts, sizes, keys, archived)
        self._notes(history)

    def _outputs(
        self,
        history: list[Message],
        facts: Mapping[str, Fact],
        sizes: Mapping[str, int],
        archived: Container[str],
    ) -> None:
        rules, keep = self.rules, dict(self.rules.keep_up_to)
        groups = [[b.call_id for b in m.tool_results if b.call_id in facts] for m in history]
        groups = [g for g in groups if g]  # one per turn: parallel results age together
        for call_id in (c for g in groups[: max(0, len(groups) - rules.age)] for c in g):
            if call_id in self._decided or call_id in archived:
                continue
            self._decided.add(call_id)
            fact, size = facts[call_id], sizes.get(call_id, 0)
            if fact.kind not in rules.kinds or (rules.keep_failures and not fact.ok):
                continue
            line = archived_line(fact)
            if size > keep.get(fact.kind, 0) and size > self.costs.count(line) * 2 + 20:
                self.lines[call_id] = line

    def _superseded(
        self,
        history: list[Message],
        facts: Mapping[str, Fact],
        sizes: Mapping[str, int],
        keys: Mapping[str, tuple[str, str]],
        archived: Container[str],
    ) -> None:
        if not self.rules.superseded:
            return
        where = {b.call_id: i for i, m in enumerate(history) for b in m.tool_results}
        turns = sum(m.role == "assistant" for m in history)
        latest: dict[tuple[str, str], str] = {}
        for call_id in sorted(where, key=where.__getitem__):
            key = keys.get(call_id)
            older = latest.get(key) if key is not None else None
            if key is not None:
                latest[key] = call_id
            if older is None or older in self.lines or older in archived:
                continue
            if f"again:{older}" in self._decided:
                continue
            self._decided.add(f"again:{older}")
            line = archived_line(facts[older], superseded=True)
            saved = sizes.get(older, 0) - self.costs.count(line)
            sent = history[where[older] + 1 : len(history) - 2]  # the latest turn is new anyway
            resent = sum(map(self.costs.message_tokens, sent)) + self.costs.count(line)
            if saved > 0 and self.costs.pays(saved, resent, turns):
                self.lines[older] = line

    def _notes(self, history: list[Message]) -> None:
        limit = self.rules.note_chars
        if len(history) < self._notes_at:
            self._notes_at = 0  # the history was replaced
        turns = [i for i, m in enumerate(history) if m.role == "assistant"]
        if not limit or len(turns) < 2:
            return
        for i in (t for t in turns[:-1] if t >= self._notes_at):
            after = history[i + 1] if i + 1 < len(history) else None
            for block in history[i].blocks if history[i].tool_calls else ():
                text = block.text if isinstance(block, TextBlock) else ""
                if len(text) <= limit + 40 or text in self.texts:
                    continue
                short = self.costs.short_note(text)
                saved = self.costs.count(text) - self.costs.count(short)
                resent = self.costs.count(short) + (
                    self.costs.message_tokens(after) if after else 0
                )
                if self.costs.pays(saved, resent, len(turns)):
                    self.texts[text] = short
        self._notes_at = turns[-1]
