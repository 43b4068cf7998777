"""task: hand a self-contained job to a sub-agent with a fresh context; only its report returns."""

from __future__ import annotations

from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params


def task(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    agents = ctx.services.subagents
    if agents is None:
        raise ToolError("task: sub-agents cannot start sub-agents of their own")
    name = args.get("agent") or "general"
    if name not in agents.definitions():
        raise ToolError(f"task: no sub-agent {name!r}; known: {', '.join(agents.definitions())}")
    report = agents.run(name, args["prompt"])
    return ToolOutput(report or "(the sub-agent gave no report)", data={"agent": name})


def _available(ctx: ToolContext) -> str | None:
    return None if ctx.services.subagents is not None else "no sub-agents in this session"


TOOLS = [
    Tool(
        "task",
        "Give a self-contained job (exploring, a long search) to a sub-agent with a fresh "
        "context; only its report returns (prompt: all it needs; agent: default general).",
        params(
            ["prompt"],
            prompt={"type": "string"},
            agent={"type": "string"},
            description={"type": "string"},
        ),
        task,
        available=_available,
        key_arg="description",
        read_only=True,
    ),
]
