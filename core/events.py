"""Hooks through which the agent reports what it does. The UI, ledger and memory subclass them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from core.facts import Fact
from core.messages import ModelResponse, StreamEvent, ToolCall, Usage

if TYPE_CHECKING:
    from core.budget import BudgetWarning
    from tools.base import ToolOutput


@dataclass
class TaskResult:
    text: str
    turns: int = 0
    usage: Usage = field(default_factory=Usage)
    stop: str = "done"  # done | max_turns | interrupted | error
    tool_calls: int = 0
    model_seconds: float = 0.0
    tool_seconds: float = 0.0
    total_seconds: float = 0.0


class AgentHooks:
    """Every method is a no-op; override what you need. A hook may raise to stop the task."""

    def on_task_start(self, task: str) -> None: ...

    def before_request(self, turn: int) -> None: ...

    def on_stream(self, event: StreamEvent) -> None: ...

    def on_retry(self, attempt: int, wait: float, reason: str) -> None:
        """Retry `attempt` starts in `wait` seconds; called again about once a second as the
        countdown runs (same attempt, less wait). `reason`: "HTTP 429", "overloaded", ..."""

    def on_response(self, response: ModelResponse) -> None: ...

    def on_tool_start(self, call: ToolCall) -> None: ...

    def on_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None: ...

    def on_fact(self, fact: Fact) -> None: ...

    def on_task_end(self, result: TaskResult) -> None: ...

    def on_budget_warning(self, warning: BudgetWarning) -> None:
        """A budget crossed 60% or 80% (the UI shows `warning.text`)."""


class HookList(AgentHooks):
    """Fans every call out to several hooks, in order."""

    def __init__(self, hooks: list[AgentHooks]) -> None:
        self.hooks = hooks

    def __getattribute__(self, name: str):
        if name.startswith("on_") or name == "before_request":
            hooks = object.__getattribute__(self, "hooks")

            def fan_out(*args, **kwargs):
                for hook in hooks:
                    getattr(hook, name)(*args, **kwargs)

            return fan_out
        return object.__getattribute__(self, name)
