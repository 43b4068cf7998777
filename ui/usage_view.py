"""/usage and /context: the session's provider-reported tokens and what the next request holds."""

from __future__ import annotations

import json
from collections.abc import Callable
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

    def __init__(self, model: Callable[[], str]) -> None:
        self.model = model  # the model asked, for pricing when the response names none
        self.reset()

    def on_response(self, response: ModelResponse) -> None:
        self.requests += 1
        self.usage = self.usage + response.usage
        cost = request_cost(response.usage, response.model or self.model())
        self.cost = None if cost is None or self.cost is None else self.cost + cost

    def reset(self) -> None:
        self.requests, self.usage, self.cost = 0, Usage(), 0.0


def request_cost(usage: Usage, model: str) -> float | None:
    """Seam for the ledger's pricing (`core.pricing`); None when unknown or not merged."""
    try:
        from core.pricing import load_prices  # type: ignore[import-not-found]
    except ImportError:
        return None
    from my_agent.config import unicum_home

    return load_prices(unicum_home()).cost(usage, model)


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


def breakdown(agent: Agent) -> list[tuple[str, int]]:
    """(part, estimated tokens): the context helper's `breakdown` when present, else the
    system prompt by `## ` section, the messages and the tool schemas."""
    try:
        from core.context_report import breakdown as full  # type: ignore[import-not-found]
    except ImportError:
        full = None
    if full is not None:
        return [(str(name), int(tokens)) for name, tokens in full(agent)]
    base, *sections = agent.system_prompt.split("\n\n## ")
    rows = [("system prompt", estimate_tokens(base))]
    for section in sections:
        name, _, body = section.partition("\n")
        rows.append((name.strip().lower(), estimate_tokens(body)))
    messages = agent.context.messages_for_request(agent.history)
    return rows + [("messages", _message_tokens(messages)),
                   ("tool schemas", estimate_tokens(json.dumps(agent.registry.specs())))]


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
    cost = tracker.cost
    table.add_row(s.t("usage_cost"), s.t("usage_no_price") if cost is None else f"${cost:.4f}")
    window = agent.client.provider.profile.context_window
    now = context_tokens(agent)
    table.add_row(s.t("usage_context"), f"~{now:,} / {window:,} ({100 * now / window:.1f}%)")
    console.print(table)
