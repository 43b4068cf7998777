"""The `mcp` SDK's side: connect to one server, list its tools, call one, and turn a result's
content blocks (text, images, audio, resources) into text. Imported only in the MCP thread
(the SDK is slow to import)."""

from __future__ import annotations

import base64
import json
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import IO, Any

import mcp_types
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.sse import sse_client
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from core.mcp.config import ServerConfig

CONNECTION_CLOSED = mcp_types.CONNECTION_CLOSED


@asynccontextmanager
async def connect(config: ServerConfig, workspace: Path, errlog: IO[str]) -> AsyncIterator[Client]:
    """A connected client (initialize handshake done) for one configured server."""
    async with AsyncExitStack() as stack:
        if config.sse:
            transport = sse_client(config.url, headers=config.headers or None)
        elif config.url:
            http = await stack.enter_async_context(
                create_mcp_http_client(headers=config.headers or None)
            )
            transport = streamable_http_client(config.url, http_client=http)
        else:
            params = StdioServerParameters(
                command=config.command, args=list(config.args), env=config.env, cwd=workspace
            )
            transport = stdio_client(params, errlog=errlog)
        client = Client(transport, mode="legacy", cache=None)
        yield await stack.enter_async_context(client)


async def list_tools(client: Client) -> list[dict[str, Any]]:
    """Every tool the server offers, page by page: name, description, input schema."""
    found: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(100):
        page = await client.list_tools(cursor=cursor)
        found += [
            {"name": t.name, "description": t.description or "", "schema": t.input_schema}
            for t in page.tools
        ]
        cursor = page.next_cursor
        if not cursor:
            break
    return found


async def call_tool(
    client: Client, name: str, args: dict[str, Any], timeout: float
) -> tuple[str, bool, dict[str, Any], list[bytes]]:
    """(text for the model, is_error, data, the images' bytes) of one call; MCPError when the
    protocol fails."""
    result = await client.call_tool(name, args, read_timeout_seconds=timeout)
    parts = [_block(b) for b in result.content]
    if result.structured_content is not None and not any(
        isinstance(b, mcp_types.TextContent) for b in result.content
    ):
        parts.append(json.dumps(result.structured_content, ensure_ascii=False))
    kinds = sorted({b.type for b in result.content})
    images = [_decoded(b.data) for b in result.content if isinstance(b, mcp_types.ImageContent)]
    text = "\n".join(p for p in parts if p) or "(no output)"
    return text, result.is_error, {"content": kinds}, [i for i in images if i]


def _decoded(data: str) -> bytes:
    try:
        return base64.b64decode(data, validate=False)
    except ValueError:
        return b""


def closed(exc: BaseException) -> bool:
    """True when the error means the connection to the server is gone."""
    return isinstance(exc, MCPError) and exc.error.code == CONNECTION_CLOSED


def _size(data: str) -> str:
    try:
        count = len(base64.b64decode(data, validate=False))
    except ValueError:
        count = len(data)
    return f"{count / 1024:.1f} KB" if count >= 1024 else f"{count} bytes"


def _block(block: Any) -> str:
    if isinstance(block, mcp_types.TextContent):
        return block.text
    if isinstance(block, mcp_types.ImageContent | mcp_types.AudioContent):
        return f"[{block.type}: {block.mime_type}, {_size(block.data)}]"
    if isinstance(block, mcp_types.ResourceLink):
        return f"[resource link: {block.uri}" + (f" ({block.name})" if block.name else "") + "]"
    if isinstance(block, mcp_types.EmbeddedResource):
        res = block.resource
        if isinstance(res, mcp_types.TextResourceContents):
            return f"[resource: {res.uri}]\n{res.text}"
        return f"[resource: {res.uri}, {res.mime_type or 'binary'}, {_size(res.blob)}]"
    return f"[{getattr(block, 'type', 'content')}]"
