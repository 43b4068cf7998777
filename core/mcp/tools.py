"""MCP tools as Unicum tools: `mcp__<server>__<tool>` with the server's schema; a call asks
like any other guarded action (the `mcp` approval) and its reason for being unavailable is the
server's state."""

from __future__ import annotations

import json
from typing import Any

from core.mcp.config import safe_name
from core.mcp.hub import McpHub
from my_agent.images import ImageError, image_from_bytes
from my_agent.messages import ImageBlock
from tools.base import Tool, ToolContext, ToolOutput
from tools.permissions import authorize

PREFIX = "mcp__"
MAX_NAME = 64  # the providers' limit on a tool name
MAX_DESCRIPTION = 2000


def server_prefix(server: str) -> str:
    return f"{PREFIX}{safe_name(server)}__"


def tool_name(server: str, tool: str) -> str:
    return f"{server_prefix(server)}{safe_name(tool)}"[:MAX_NAME]


def _schema(raw: Any) -> dict[str, Any]:
    schema = dict(raw) if isinstance(raw, dict) else {}
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    return schema


def _preview(args: dict[str, Any]) -> str:
    text = json.dumps(args, ensure_ascii=False)
    return text if len(text) <= 200 else text[:199] + "…"


def _tool(hub: McpHub, server: str, listed: dict[str, Any]) -> Tool:
    name = tool_name(server, listed["name"])
    remote = listed["name"]

    def handler(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
        question = f"Run the MCP tool {remote} of server '{server}' with {_preview(args)}?"
        authorize(ctx, "mcp", question, name)
        result = hub.call(server, remote, args)
        data = {"server": server, "tool": remote, **result.data}
        text = f"{name} is unavailable: {result.text}" if result.unavailable else result.text
        return ToolOutput(text, result.is_error, data, images=_images(ctx, result.images, name))

    schema = _schema(listed.get("schema"))
    first = next((k for k in schema.get("properties", {})), "")
    return Tool(
        name=name,
        description=(listed.get("description") or f"{remote} (MCP server {server})")[
            :MAX_DESCRIPTION
        ],
        parameters=schema,
        handler=handler,
        available=lambda ctx: hub.unavailable(server),
        key_arg=first,
        brief=False,
    )


def _images(ctx: ToolContext, images: list[bytes], name: str) -> list[ImageBlock]:
    """An MCP tool's images as image blocks, for a model that takes images (fitted to its
    limits); none for a text-only model (the result's text names them)."""
    if ctx.image_limits is None:
        return []
    blocks = []
    for n, raw in enumerate(images, 1):
        try:
            blocks.append(image_from_bytes(raw, ctx.image_limits, f"{name}-{n}").block)
        except ImageError:
            continue  # not an image it can read: the text line still names it
    return blocks


def hub_tools(hub: McpHub) -> list[Tool]:
    """The tools of every server that is up now, by name (the first of a clash wins)."""
    found: dict[str, Tool] = {}
    for server, state in sorted(hub.servers.items()):
        if state.status != "ready":
            continue
        for listed in state.tools:
            tool = _tool(hub, server, listed)
            found.setdefault(tool.name, tool)
    return list(found.values())
