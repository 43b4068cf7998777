"""What the next request would hold, by part, for `/context`."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from core.context import L0_HEADER
from my_agent.messages import Message, TextBlock, message_text
from my_agent.tokens import estimate_tokens

if TYPE_CHECKING:
    from core.agent.loop.agent import Agent


def prompt_sections(system_prompt: str) -> list[tuple[str, str]]:
    """The system prompt split at its `## Name` sections; the base comes first as 'system'."""
    parts = system_prompt.split("\n\n## ")
    out = [("system prompt", parts[0])]
    for part in parts[1:]:
        name, _, body = part.partition("\n")
        out.append((name.strip().lower(), body))
    return out


def _split_view(view: list[Message]) -> tuple[int, int, int]:
    """(L0 tokens, summary tokens, other message tokens) of the request's messages."""
    l0 = summary = total = 0
    for msg in view:
        total += estimate_tokens(message_text(msg))
        for block in msg.blocks:
            if isinstance(block, TextBlock) and block.text.startswith(L0_HEADER):
                l0 += estimate_tokens(block.text)
            elif isinstance(block, TextBlock) and block.text.startswith("[Summary of the session"):
                summary += estimate_tokens(block.text)
    return l0, summary, max(0, total - l0 - summary)


def breakdown(agent: Agent) -> list[tuple[str, int]]:
    """[(part, tokens)]: system prompt, each prompt section (memory, instructions, ...), tool
    schemas, L0, summary, messages; read-only (never triggers a compaction)."""
    rows = [
        (name, estimate_tokens(text)) for name, text in prompt_sections(agent.system_prompt.text)
    ]
    rows.append(("tool schemas", estimate_tokens(json.dumps(agent.registry.specs()))))
    policy = agent.context
    view = policy.view(agent.history)
    l0, summary, messages = _split_view(view)
    rows += [("L0 progress", l0), ("summary", summary), ("messages", messages)]
    scaled = [(name, int(tokens * policy.ratio)) for name, tokens in rows]
    fixed = policy.calibration.fixed  # provider-counted prompt + schemas, once usage was seen
    if fixed:
        prompt = sum(t for name, t in scaled[: len(rows) - 4])
        scaled[len(rows) - 4] = ("tool schemas", max(0, fixed - prompt))
    return scaled


def status(agent: Agent) -> dict[str, object]:
    """Counters for `/context`: phase, compactions so far, archived outputs, window."""
    policy = agent.context
    archive = agent.tool_context.services.archive
    return {
        "phase": policy.phase,
        "compactions": policy.compactions,
        "archived": len(archive.entries) if archive is not None else 0,
        "archive_problem": archive.persist_error if archive is not None else "",
        "window": policy.window_tokens,
    }
