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
from functools import cached_property
from typing import Protocol

from core.context.compaction import archived_line
from core.context.lines import LineRules, reads_like_spec, select, used_words
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
    lines: LineRules | None = LineRules()  # outputs left whole keep only the lines later used
    keep_tools: tuple[str, ...] = ()  # outputs of these tools stay whole (sub-agent reports)


def _text(now: _Now, index: int, call_id: str) -> str:
    return next(b.content for b in now.history[index].tool_results if b.call_id == call_id)


def _plain(value: object) -> str:
    """Argument values as the model typed them."""
    if isinstance(value, dict):
        return "\n".join(_plain(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(_plain(v) for v in value)
    return str(value)


class Costs(Protocol):
    """What the policy prices a rewrite with."""

    count: Callable[[str], int]

    def pays(self, saved: int, resent: int, turns: int) -> bool: ...

    def shown_tokens(self, history: list[Message]) -> list[int]: ...

    def short_note(self, text: str, archive: bool = True) -> str: ...

    def note_archived(self, text: str) -> bool: ...


@dataclass
class _Now:
    """What one request's decisions are taken on. `sizes`: each output's tokens as sent;
    `keys`: its call's (name, arguments); `archived`: outputs an event already replaced or a
    later repeat points at."""

    history: list[Message]
    facts: Mapping[str, Fact]
    sizes: Mapping[str, int]
    keys: Mapping[str, tuple[str, str]]
    archived: Container[str]
    costs: Costs
    carried: int  # how many history messages the previous request carried
    _sums: list[int] | None = None

    @cached_property
    def turns(self) -> int:
        return sum(m.role == "assistant" for m in self.history)

    def sent_after(self, index: int) -> int:
        """Tokens the previous request already carried after message `index`, as shown now
        (what came since is new anyway; a resumed session's first request carried nothing)."""
        if self._sums is None:  # priced lazily: most requests decide nothing that needs it
            self._sums = [0]
            for tokens in self.costs.shown_tokens(self.history):
                self._sums.append(self._sums[-1] + tokens)
        end = min(self.carried, len(self.history))
        return self._sums[end] - self._sums[index + 1] if end > index + 1 else 0

    def changed(self) -> None:
        """Lines were added: what follows is priced as the request now shows it."""
        self._sums = None


class EarlyDecisions:
    """`lines`: call id -> the line shown instead of its output; `texts`: note -> its opening.
    Each is decided once and never changes back, so the prefix stays cached."""

    NOT_STATE = ("rules", "costs")  # collaborators, not state (core/context/state.py)

    def __init__(self, rules: EarlyRules, costs: Costs) -> None:
        self.rules, self.costs = rules, costs
        self.lines: dict[str, str] = {}
        self.texts: dict[str, str] = {}
        self._decided: set[str] = set()  # outputs judged, and "again:<id>" for repeated calls
        self._notes: set[str] = set()  # notes judged (a rewind does not judge them again)
        self._carried = 0  # history messages the previous request carried

    def update(
        self,
        history: list[Message],
        facts: Mapping[str, Fact],
        sizes: Mapping[str, int],
        keys: Mapping[str, tuple[str, str]],
        archived: Container[str],
    ) -> None:
        """Decide what is due now (see `_Now` for the arguments)."""
        now = _Now(history, facts, sizes, keys, archived, self.costs, self._carried)
        for decide in (self._outputs, self._superseded):
            before = len(self.lines)
            decide(now)
            if len(self.lines) > before:
                now.changed()
        self._shorten_notes(now)
        self._carried = len(history)

    def _worth(self, saved: int, line: str, resent: int, turns: int) -> bool:
        """A rewrite re-sends its line and what was sent after it; with nothing after it
        (the usual case, one turn on) it only has to be clearly shorter."""
        if resent == 0:
            return saved > self.costs.count(line) + 20
        return saved > 0 and self.costs.pays(saved, resent + self.costs.count(line), turns)

    def _outputs(self, now: _Now) -> None:
        rules, keep, facts = self.rules, dict(self.rules.keep_up_to), now.facts
        groups = [
            (i, [b.call_id for b in m.tool_results if b.call_id in facts])
            for i, m in enumerate(now.history)
        ]
        groups = [(i, g) for i, g in groups if g]  # one per turn: parallel results age together
        late = rules.lines.late_kinds if rules.lines else ()
        crowded = self._crowded(now, [c for _, g in groups for c in g], late)
        for pos, (index, group) in enumerate(groups[: max(0, len(groups) - rules.age)]):
            for call_id in group:
                if call_id in self._decided or call_id in now.archived or call_id in self.lines:
                    continue
                fact, size = facts[call_id], now.sizes.get(call_id, 0)
                if fact.kind in late:
                    age = len(groups) - pos
                    fresh = age == 2 and not now.sent_after(index)  # nothing cached after
                    if crowded and fresh and f"crowd:{call_id}" not in self._decided:
                        self._decided.add(f"crowd:{call_id}")  # judged once, when crowded
                        self._select(now, index, call_id, rules.lines.late_write)
                        if call_id in self.lines:
                            self._decided.add(call_id)
                        continue
                    self._select_late(now, index, call_id, age)
                    continue
                self._decided.add(call_id)
                if self._spec(now, index, call_id):
                    continue  # a task or page printed by a program: quoted all session long
                if fact.kind in rules.kinds and not (rules.keep_failures and not fact.ok):
                    line = archived_line(fact)
                    saved = size - self.costs.count(line)
                    if size > keep.get(fact.kind, 0) and self._worth(
                        saved, line, now.sent_after(index), now.turns
                    ):
                        self.lines[call_id] = line
                        continue
                self._select(now, index, call_id)

    def _crowded(self, now: _Now, results: list[str], late: tuple[str, ...]) -> bool:
        """Whole outputs awaiting their late judgment pass `late_crowd` tokens: the session's
        outputs are large, so they are judged from two turns on instead."""
        lines = self.rules.lines
        if lines is None or not lines.late_crowd:
            return False
        waiting = sum(
            now.sizes.get(c, 0)
            for c in results
            if now.facts[c].kind in late and c not in self.lines and c not in now.archived
        )
        return waiting > lines.late_crowd

    def _spec(self, now: _Now, index: int, call_id: str) -> bool:
        if self.rules.lines is None:
            return False
        return reads_like_spec(_text(now, index, call_id).split("\n"))

    def _select_late(self, now: _Now, index: int, call_id: str, age: int) -> None:
        """Judged once what follows shows what it is used for (`late_age` turns on), then
        again at twice that age and so on, until its lines pay."""
        lines = self.rules.lines
        assert lines is not None
        step = lines.late_age
        while step < age:
            step *= 2
        if age == step or (age == lines.late_age + 1 and step > age):
            self._select(now, index, call_id, lines.late_write)
            if call_id in self.lines:
                self._decided.add(call_id)

    def _select(self, now: _Now, index: int, call_id: str, write: float = 0.0) -> None:
        """An output left whole keeps only the lines later steps use, when that pays
        (`write`: the price of re-sending what follows, when not the policy's own)."""
        shown = self.kept_lines(now.history, index, call_id, now.facts[call_id])
        if shown is None:
            return
        saved = now.sizes.get(call_id, 0) - self.costs.count(shown)
        resent = now.sent_after(index)
        if write and resent:
            pays = saved * max(1, now.turns) * 0.1 >= (resent + self.costs.count(shown)) * write
        else:
            pays = self._worth(saved, shown, resent, now.turns)
        if pays:
            self.lines[call_id] = shown

    def kept_lines(
        self, history: list[Message], index: int, call_id: str, fact: Fact, named: bool = False
    ) -> str | None:
        """The output of `history[index]` with only the lines the steps since used (lines.py),
        or None when it stays as it is (`named`: also when no line was kept for what it says)."""
        lines = self.rules.lines
        if lines is None or fact.tool in self.rules.keep_tools or fact.kind in lines.skip_kinds:
            return None
        text = next(b.content for b in history[index].tool_results if b.call_id == call_id)
        since = [m for m in history[index + 1 :] if m.role == "assistant"]
        used = used_words(
            (b.text for m in since for b in m.blocks if isinstance(b, TextBlock)),
            (_plain(c.arguments) for m in since for c in m.tool_calls),
        )
        entry = fact.archive_id or call_id
        code = fact.kind == "read"
        return select(text, entry, used, lines, self.costs.count, code, named)

    def _superseded(self, now: _Now) -> None:
        if not self.rules.superseded:
            return
        where = {b.call_id: i for i, m in enumerate(now.history) for b in m.tool_results}
        newest = max(where.values(), default=-1)  # the results the model has not seen yet
        latest: dict[tuple[str, str], str] = {}
        for call_id in sorted(where, key=where.__getitem__):
            key = now.keys.get(call_id)
            older = latest.get(key) if key is not None else None
            if key is not None:
                latest[key] = call_id
            if older is None or older in self.lines or older in now.archived:
                continue
            if where[older] == newest or f"again:{older}" in self._decided:
                continue
            self._decided.add(f"again:{older}")
            line = archived_line(now.facts[older], superseded=True)
            saved = now.sizes.get(older, 0) - self.costs.count(line)
            resent = now.sent_after(where[older]) + self.costs.count(line)
            if saved > 0 and self.costs.pays(saved, resent, now.turns):
                self.lines[older] = line

    def _shorten_notes(self, now: _Now) -> None:
        limit, history = self.rules.note_chars, now.history
        assistant = [i for i, m in enumerate(history) if m.role == "assistant"]
        if not limit:
            return
        resumed = now.carried == 0  # a new process: what the earlier one decided is archived
        for i in assistant[:-1]:  # the latest note stays whole
            for block in history[i].blocks if history[i].tool_calls else ():
                text = block.text if isinstance(block, TextBlock) else ""
                if len(text) <= limit + 40 or text in self._notes:
                    continue
                self._notes.add(text)
                if resumed:
                    if self.costs.note_archived(text):
                        self.texts[text] = self.costs.short_note(text)
                    continue
                short = self.costs.short_note(text, archive=False)  # archived only when used
                saved = self.costs.count(text) - self.costs.count(short)
                resent = now.sent_after(i) + self.costs.count(short)
                if saved > 0 and self.costs.pays(saved, resent, now.turns):
                    self.texts[text] = self.costs.short_note(text)
