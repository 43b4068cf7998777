"""The safety net: an LLM-written structured summary, and a hard crop as the last resort."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from core.agent.events import AgentHooks
from core.context import SUMMARY_SYSTEM
from core.model import ModelClient
from my_agent.errors import Interrupted
from my_agent.messages import Message

if TYPE_CHECKING:
    from core.agent.loop.agent import Agent


def make_summarizer(client: ModelClient, hooks: AgentHooks) -> Callable[[list[Message]], str]:
    """A summarizer calling the session's own model with no tools (tool list stays unchanged
    for the main requests; this request is a separate one), reported to the session's hooks."""

    def summarize(messages: list[Message]) -> str:
        try:
            response = client.stream(
                SUMMARY_SYSTEM, messages, [], lambda event: None, on_retry=hooks.on_retry
            )
        except KeyboardInterrupt:
            raise Interrupted("compaction interrupted; nothing was changed") from None
        response.purpose = "summary"
        hooks.on_response(response)  # a billed request: the ledger records it too
        return response.message.text

    return summarize


def compact_session(agent: Agent) -> str:
    """What the REPL's `/compact` calls: summarize now; returns the summary (empty: nothing to
    compact). The history itself is kept; the policy shows the summary in its place."""
    return agent.context.compact(agent.history, make_summarizer(agent.client, agent.hooks))
