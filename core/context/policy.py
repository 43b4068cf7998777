"""What each request holds. The default policy sends the whole history; see compaction policies."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from my_agent.facts import Fact
from my_agent.messages import Message, ToolCall

Summarizer = Callable[[list[Message]], str]


class ContextPolicy(Protocol):
    ratio: float  # provider tokens per locally estimated token
    compactions: int

    def messages_for_request(self, history: list[Message]) -> list[Message]: ...

    def on_tool_result(self, call: ToolCall, output: object) -> Fact | None:
        """Record one finished call; may return its fact (with the archive id) for the agent."""
        ...

    def view(self, history: list[Message]) -> list[Message]:
        """What the next request would hold, without compacting anything."""
        ...

    def compact(self, history: list[Message], summarize: Summarizer) -> str:
        """Summarize now (`/compact`); the summary, or "" when there is nothing to compact."""
        ...

    def on_overflow(self, history: list[Message]) -> bool:
        """The server said the last request did not fit: compact now; False when it cannot."""
        ...

    def observe_usage(self, reported_input: int) -> None:
        """The provider's input count for the last request: calibrates the local estimate."""
        ...

    @property
    def phase(self) -> str: ...

    @property
    def window_tokens(self) -> int: ...


class FullHistory:
    """Naive policy: every message, unchanged."""

    ratio = 1.0
    compactions = 0
    phase = ""
    window_tokens = 0

    def messages_for_request(self, history: list[Message]) -> list[Message]:
        return list(history)

    def on_tool_result(self, call: ToolCall, output: object) -> None:
        return None

    def view(self, history: list[Message]) -> list[Message]:
        return list(history)

    def compact(self, history: list[Message], summarize: Summarizer) -> str:
        return ""

    def on_overflow(self, history: list[Message]) -> bool:
        return False

    def observe_usage(self, reported_input: int) -> None:
        return None
