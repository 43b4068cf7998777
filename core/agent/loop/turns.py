"""The turns of one task, shared with the sub-agents it starts: `--max-turns` bounds every
request the task makes (a child's too), and the task's result counts them all, usage included."""

from __future__ import annotations

from dataclasses import dataclass, field

from my_agent.messages import Usage


@dataclass
class TurnCount:
    limit: int
    used: int = 0  # requests made, the sub-agents' included
    usage: Usage = field(default_factory=Usage)  # of those requests
    children: int = 0  # requests the sub-agents made

    def take(self) -> bool:
        """One more request, if the limit allows it."""
        if self.used >= self.limit:
            return False
        self.used += 1
        return True
