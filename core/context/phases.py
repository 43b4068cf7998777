"""Where a task stands, from what its tools do, and what each phase protects from compaction."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from my_agent.facts import Fact


class TaskPhase(StrEnum):
    """Where a task stands; drives what context compression protects."""

    PLANNING = "planning"
    EXECUTING = "executing"
    VERIFYING = "verifying"


@dataclass(frozen=True)
class PhaseRules:
    """How much recent tool output stays verbatim (in tokens) and which facts L0 must keep."""

    keep_recent_tokens: int
    keep_recent_min: int  # at least this many latest tool results stay verbatim
    protect_kinds: tuple[str, ...] = ()
    batch_tokens: int = 4_000  # uncompacted output beyond the kept tail that fires an event


# Tuned with bench/replay.py on the tune half of the shipped recordings (see docs/context.md).
PHASE_RULES = {
    # Exploring: only the newest output stays whole; reads worth keeping are the hot reads.
    TaskPhase.PLANNING: PhaseRules(keep_recent_tokens=600, keep_recent_min=1, batch_tokens=6_000),
    # Editing and checking: the edit/test results being worked on stay whole a little longer.
    TaskPhase.EXECUTING: PhaseRules(keep_recent_tokens=1000, keep_recent_min=1, batch_tokens=6_000),
    TaskPhase.VERIFYING: PhaseRules(
        keep_recent_tokens=1000,
        keep_recent_min=1,
        batch_tokens=6_000,
        protect_kinds=("test", "run"),
    ),
}

CHANGES = ("write", "edit")
CHECKS = ("test", "run", "build")


class PhaseTracker:
    """PLANNING → EXECUTING on the first write/edit → VERIFYING on tests or runs after a change;
    back to EXECUTING when an edit follows a failing check."""

    def __init__(self) -> None:
        self.phase = TaskPhase.PLANNING
        self.changed = False
        self.last_check_failed = False

    def update(self, fact: Fact) -> TaskPhase:
        if fact.kind in CHANGES and fact.ok:
            self.changed = True
            self.phase = TaskPhase.EXECUTING
        elif fact.kind in CHECKS and self.changed:
            self.phase = TaskPhase.VERIFYING
            self.last_check_failed = not fact.ok
        return self.phase

    @property
    def rules(self) -> PhaseRules:
        return PHASE_RULES[self.phase]
