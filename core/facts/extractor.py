"""Rule-based facts from tool calls (zero LLM calls): look the tool up in a rule table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.facts.table import RULES, Rule
from my_agent.facts import Fact
from my_agent.messages import ToolCall


def extract(call: ToolCall, output: Any, rules: Mapping[str, Rule] = RULES) -> Fact:
    """The fact for one finished call; `output` is the tool's ToolOutput. A caller may pass
    its own table (e.g. `{**RULES, "my_tool": my_rule}`)."""
    family = call.name.split("__", 1)[0] if "__" in call.name else ""  # mcp__server__tool
    fn = rules.get(call.name) or rules.get(family) or generic_fact
    try:
        return fn(call, output)
    except Exception:  # a rule bug must never cost the session a tool result
        return generic_fact(call, output)


def generic_fact(call: ToolCall, output: Any) -> Fact:
    """The fallback for a tool without a rule: its first argument and first output line."""
    target = str(next(iter(call.arguments.values()), "")) if call.arguments else ""
    first = (output.content.strip().splitlines() or [""])[0][:120]
    return Fact(
        tool=call.name, kind="other", target=target[:120], ok=not output.is_error, summary=first
    )
