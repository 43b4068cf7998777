"""code_map: who defines, calls and depends on what, from the project's tree-sitter index."""

from __future__ import annotations

from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params

ACTIONS = ("overview", "definition", "references", "impact", "outline", "rename")


def code_map(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    action = args["action"]
    if action == "overview":
        return _overview(ctx, str(args.get("name") or args.get("path") or ""))
    target = (
        (args.get("path") if action == "outline" else None)
        or args.get("name")
        or args.get("path")
        or ""
    )
    if not target.strip():
        raise ToolError(f"code_map {action} needs " + ("path" if action == "outline" else "name"))
    extra = [str(args.get("new_name") or "").strip()] if action == "rename" else []
    if extra == [""]:
        raise ToolError("code_map rename needs new_name")
    cmap = ctx.services.codemap
    if cmap is None:
        raise ToolError("this session has no code map")
    answers = {
        "definition": cmap.definition,
        "references": cmap.references,
        "impact": cmap.impact,
        "outline": cmap.outline,
        "rename": cmap.rename,
    }
    try:
        answer = answers[action](target.strip(), *extra)
    except OSError as exc:
        raise ToolError(f"code map unavailable: {exc}") from exc
    return ToolOutput(answer, data={"action": action, "target": target})


def _overview(ctx: ToolContext, task: str) -> ToolOutput:
    cmap = ctx.services.codemap
    if cmap is None:
        raise ToolError("this session has no code map")
    try:
        return ToolOutput(cmap.overview(task), data={"action": "overview", "target": task})
    except OSError as exc:
        raise ToolError(f"code map unavailable: {exc}") from exc


TOOLS = [
    Tool(
        "code_map",
        "Code index: overview (main files; name: task words), definition, references "
        "(callers), impact (dependents), outline of path, rename to new_name (dry run).",
        params(
            ["action"],
            action={"type": "string", "enum": list(ACTIONS)},
            name={"type": "string", "description": "symbol, Class.method or file.py:name"},
            path={"type": "string"},
            new_name={"type": "string"},
        ),
        code_map,
        available=lambda ctx: (
            None if ctx.services.codemap is not None else "this session has no code map"
        ),
        key_arg="name",
        read_only=True,
    ),
]
