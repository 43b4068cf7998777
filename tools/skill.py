"""skill: load the full instructions of a skill listed in the system prompt."""

from __future__ import annotations

from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params


def skill(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    book = ctx.services.skills
    if book is None:
        raise ToolError("this session has no skills")
    skills = book.all()
    found = skills.get(args["name"].strip())
    if found is None:
        names = ", ".join(skills) or "none are installed"
        raise ToolError(f"no skill named '{args['name']}' (available: {names})")
    body = book.body(found)
    files = sorted(p.name for p in found.path.parent.iterdir() if p.name != "SKILL.md")
    extra = f"\n\n[files next to it in {found.path.parent}: {', '.join(files)}]" if files else ""
    return ToolOutput(
        f"# Skill: {found.name}\n{body}{extra}", data={"path": str(found.path), "name": found.name}
    )


TOOLS = [
    Tool(
        "skill",
        "Load the instructions of a skill listed under Skills in the system prompt.",
        params(["name"], name={"type": "string"}),
        skill,
        available=lambda ctx: (
            None if ctx.services.skills is not None else "this session has no skills"
        ),
        key_arg="name",
        read_only=True,
    ),
]
