"""code_map: who defines, calls and depends on what, from the project's tree-sitter index."""

from __future__ import annotations

from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params

ACTIONS = ("definition", "references", "impact", "outline")


def _code_map(ctx: ToolContext) -> tuple[Any, bool]:
    """The session's shared map when there is one, else one for this call (imported lazily)."""
    shared = ctx.services.get("codemap")
    if shared is not None:
        return shared, False
    from core.codemap.service import CodeMap

    return CodeMap(ctx.workspace, ctx.home), True


def code_map(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    action = args["action"]
    target = (args.get("path") if action == "outline" else None) or args.get("name") or args.get(
        "path") or ""
    if not target.strip():
        raise ToolError(f"code_map {action} needs " + ("path" if action == "outline" else "name"))
    cmap, owned = _code_map(ctx)
    try:
        answer = getattr(cmap, action)(target.strip())
    except OSError as exc:
        raise ToolError(f"code map unavailable: {exc}") from exc
    finally:
        if owned:
            cmap.close()
    return ToolOutput(answer, data={"action": action, "target": target})


TOOLS = [
    Tool(
        "code_map",
        "Code index, cheaper than reading files: definition(name), references(name) = call "
        "sites, impact(name|path) = dependents, outline(path) = symbols with lines.",
        params(["action"], action={"type": "string", "enum": list(ACTIONS)},
               name={"type": "string", "description": "symbol; Class.method or file.py:name ok"},
               path={"type": "string", "description": "file path for outline"}),
        code_map,
        key_arg="name",
    ),
]
