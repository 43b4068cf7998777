"""Rule-based facts from tool calls (zero LLM calls). One extension point: `register`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.facts import Fact
from core.messages import ToolCall

Extractor = Callable[[ToolCall, Any], Fact]
_EXTRACTORS: dict[str, Extractor] = {}


def register(tool_name: str) -> Callable[[Extractor], Extractor]:
    def wrap(fn: Extractor) -> Extractor:
        _EXTRACTORS[tool_name] = fn
        return fn

    return wrap


def extract(call: ToolCall, output: Any) -> Fact:
    """The fact for one finished call; `output` is the tool's ToolOutput."""
    import core.fact_rules  # noqa: F401  (registers the built-in rules on first use)

    fn = _EXTRACTORS.get(call.name, _generic)
    try:
        return fn(call, output)
    except Exception:  # a rule bug must never cost the session a tool result
        return _generic(call, output)


def _generic(call: ToolCall, output: Any) -> Fact:
    target = str(next(iter(call.arguments.values()), "")) if call.arguments else ""
    first = (output.content.strip().splitlines() or [""])[0][:120]
    return Fact(
        tool=call.name, kind="other", target=target[:120], ok=not output.is_error, summary=first
    )
