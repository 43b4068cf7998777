"""Outputs a later step rarely needs (test and build logs, write receipts, long program runs)
become their one-line fact as soon as a newer output follows: nothing was cached after them
yet, so the rewrite costs only the short line. Measured with bench/replay.py on the tune half:
such outputs were a fifth of what requests carried and gave under a tenth of the references
later calls used; a short program output is kept (later commands reuse its values)."""

from __future__ import annotations

from collections.abc import Callable

from core.context.compaction import archived_line
from my_agent.facts import Fact
from my_agent.messages import Message

EARLY_KINDS = ("run", "test", "build", "write")


class EarlyOutputs:
    """call id -> the line shown instead of its output, decided once (it never changes back,
    so the prefix stays cached)."""

    def __init__(
        self, kinds: tuple[str, ...] = EARLY_KINDS, age: int = 1, run_tokens: int = 800
    ) -> None:
        self.kinds, self.age = kinds, age
        self.run_tokens = run_tokens  # a program's output up to this stays: the data worked on
        self.lines: dict[str, str] = {}
        self._decided: set[str] = set()

    def update(
        self,
        history: list[Message],
        facts: dict[str, Fact],
        tokens: Callable[[str, int], int],
        protect: Callable[[Fact], bool],
    ) -> None:
        """Decide for each output now `age` turns of results old; `tokens(call_id)`: its size as sent;
        `protect(fact)`: stays whole (the failure being worked on)."""
        if not self.kinds:
            return
        groups = [[b.call_id for b in m.tool_results if b.call_id in facts] for m in history]
        groups = [g for g in groups if g]  # one per turn: parallel results age together
        for call_id in (c for g in groups[: max(0, len(groups) - self.age)] for c in g):
            if call_id in self._decided:
                continue
            self._decided.add(call_id)
            fact, size = facts[call_id], tokens(call_id, 0)
            if fact.kind not in self.kinds or protect(fact):
                continue
            if fact.kind == "run" and size <= self.run_tokens:
                continue
            line = archived_line(fact)
            if size > 2 * len(line) // 4 + 20:  # worth a rewrite
                self.lines[call_id] = line
