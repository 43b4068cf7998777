"""/usage and /context: the session's provider-reported tokens and what the next request holds."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from core.agent import Agent
from core.events import AgentHooks
from core.messages import Message, ModelResponse, ReasoningBlock, TextBlock, ToolCall, Usage
from core.tokens import estimate_tokens
from ui.i18n import Strings

if TYPE_CHECKING:
    from rich.console import Console


class UsageTracker(AgentHooks):
    """Adds up the usage the provider reported for each response of this session."""

    def __init__(self) -> None:
        self.requests = 0
        self.usage = Usage()

    def on_response(self, response: ModelResponse) -> None:
        self.requests += 1
        self.usage = self.usage + response.usage

    def reset(self) -> None:
        self.requests, self.usage = 0, Usage()


def estimated_cost(agent: Agent, usage: Usage) -> float | None:
    """Seam for the ledger's pricing (`core.ledger.estimate_cost`); None until it is merged."""
    try:
        from core.ledger import estimate_cost  # type: ignore[attr-defined]
    except ImportError:
        return None
    return estimate_cost(agent.client.provider.profile.name, agent.client.model, usage)


def _message_tokens(messages: list[Message]) -> int:
    total = 0
    for msg in messages:
        for block in msg.blocks:
            if isinstance(block, TextBlock | ReasoningBlock):
                total += estimate_tokens(block.text)
            elif isinstance(block, ToolCall):
                total += estimate_tokens(block.name + (block.raw_arguments or
                                                       json.dumps(block.arguments)))
            else:
                total += estimate_tokens(block.content)
    return total


def _split_memory(system: str) -> tuple[str, str]:
    head, sep, tail = system.partition("\n\n## Memory\n")
    if not sep:
        return system, ""
    memory, sep2, rest = tail.partition("\n\n## ")
    return head + (sep2 + rest if sep2 else ""), memory


def breakdown(agent: Agent) -> list[tuple[str, int]]:
    """(segment key, estimated tokens); the context helper's `breakdown` wins when present."""
    try:
        from core.context_report import breakdown as full  # type: ignore[import-not-found]
    except ImportError:
        full = None
    if full is not None:
        rows = full(agent)
        return list(rows.items()) if isinstance(rows, dict) else [tuple(r) for r in rows]
    system, memory = _split_memory(agent.system_prompt)
    messages = agent.context.messages_for_request(agent.history)
    return [("ctx_system", estimate_tokens(system)), ("ctx_memory", estimate_tokens(memory)),
            ("ctx_l0", 0),  # the full-history policy sends no fact layer
            ("ctx_messages", _message_tokens(messages)),
            ("ctx_tools", estimate_tokens(json.dumps(agent.registry.specs())))]


def context_tokens(agent: Agent) -> int:
    return sum(n for _, n in breakdown(agent))


def render_context(console: Console, s: Strings, agent: Agent) -> None:
    from rich.table import Table

    rows = breakdown(agent)
    table = Table(title=s.t("context_title"), show_header=False, box=None, padding=(0, 2),
                  title_justify="left")
    for key, tokens in rows:
        table.add_row(s.t(str(key)), f"{tokens:,}")
    table.add_row(s.t("ctx_total"), f"{sum(n for _, n in rows):,}", style="bold")
    console.print(table)


def render_usage(console: Console, s: Strings, agent: Agent, tracker: UsageTracker) -> None:
    from rich.table import Table

    u = tracker.usage
    table = Table(title=s.t("usage_title"), show_header=False, box=None, padding=(0, 2),
                  title_justify="left")
    table.add_row(s.t("usage_requests"), f"{tracker.requests:,}")
    table.add_row(s.t("usage_input"), f"{u.input:,}")
    table.add_row(s.t("usage_cache_read"), f"{u.cache_read:,}")
    table.add_row(s.t("usage_cache_write"), f"{u.cache_write:,}")
    table.add_row(s.t("usage_output"), f"{u.output:,}")
    cost = estimated_cost(agent, u)
    table.add_row(s.t("usage_cost"), s.t("usage_no_price") if cost is None else f"${cost:.4f}")
    window = agent.client.provider.profile.context_window
    now = context_tokens(agent)
    table.add_row(s.t("usage_context"), f"~{now:,} / {window:,} ({100 * now / window:.1f}%)")
    console.print(table)
