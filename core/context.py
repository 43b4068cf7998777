"""What each request holds. The default policy sends the whole history; see compaction policies."""

from __future__ import annotations

from typing import Protocol

from core.facts import Fact
from core.messages import Message, ToolCall


class ContextPolicy(Protocol):
    def messages_for_request(self, history: list[Message]) -> list[Message]: ...

    def on_tool_result(self, call: ToolCall, output: object) -> Fact | None:
        """Record one finished call; may return its fact (with the archive id) for the agent."""
        ...


class FullHistory:
    """Naive policy: every message, unchanged."""

    def messages_for_request(self, history: list[Message]) -> list[Message]:
        return list(history)

    def on_tool_result(self, call: ToolCall, output: object) -> None:
        return None
