"""Memory extraction as agent hooks: collect facts, write memory at task end and session end."""

from __future__ import annotations

from collections.abc import Callable

from core.agent.events import AgentHooks, TaskResult
from core.memory import MemoryEntry, MemoryStore
from my_agent.facts import Fact


class MemoryHooks(AgentHooks):
    """Turns the facts of each task into project memory; a failed save is a warning, not a crash."""

    def __init__(
        self,
        store: MemoryStore,
        source: str = "",
        extra: Callable[[], list[Callable[[Fact], list[MemoryEntry]]]] = list,
    ) -> None:
        self.store = store
        self.source = source
        self.extra = extra  # plugins' memory rules (fact -> entries)
        self.pending: list[Fact] = []
        self.warnings: list[str] = []

    def on_fact(self, fact: Fact) -> None:
        self.pending.append(fact)

    def on_task_end(self, result: TaskResult) -> None:
        self.flush()

    def close(self) -> None:
        """Session end: save whatever the last (perhaps interrupted) task left."""
        self.flush()

    def take_warnings(self) -> list[str]:
        """Warnings from the store and from saving not yet shown; each is returned once."""
        found, self.warnings = self.store.take_warnings() + self.warnings, []
        return found

    def consolidate(self) -> None:
        """Session end: merge near-duplicates, decay stale entries, write MEMORY.md."""
        from core.memory import consolidate

        try:
            self.warnings += consolidate(self.store, session_end=True).merge_lines()
        except Exception as exc:  # memory must never end a session: report and go on
            self.warnings.append(f"memory not consolidated: {type(exc).__name__}: {exc}")

    def flush(self) -> int:
        """Write memory for the pending facts; returns how many entries were saved."""
        facts, self.pending = self.pending, []
        if not facts:
            return 0
        from core.memory import combine, facts_to_entries  # rule tables: load when used

        try:
            entries = facts_to_entries(facts, root=self.store.workspace, source=self.source)
            entries += [entry for rule in self.extra() for fact in facts for entry in rule(fact)]
            return self.store.merge("project", entries, combine)
        except Exception as exc:  # memory must never end a session: report and go on
            self.warnings.append(f"memory not saved: {type(exc).__name__}: {exc}")
            return 0
