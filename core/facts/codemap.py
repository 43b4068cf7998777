"""The one-line fact a code_map call leaves behind: "references area → 3 call sites in 2 files"."""

from __future__ import annotations

from typing import Any

from my_agent.facts import Fact
from my_agent.messages import ToolCall


def code_map_fact(call: ToolCall, output: Any) -> Fact:
    args = call.arguments or {}
    action = str(args.get("action", ""))
    target = str(args.get("name") or args.get("path") or "")
    first = (output.content.strip().splitlines() or [""])[0][:160]
    return Fact(
        tool="code_map",
        kind="search",
        target=f"{action} {target}".strip()[:120],
        ok=not output.is_error,
        summary=first,
        path=target if action == "outline" else None,
        details={"action": action},
    )
