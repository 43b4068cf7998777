"""MCP as Claude Code users run it, through the real CLI `-p` and servers written with the `mcp`
SDK: an SSE server (`"type": "sse"`), and a tool's image reaching a model that takes images
as a real image block."""

from __future__ import annotations

import json

from tests.conftest import provider_env, run_cli
from tests.helpers.mcp_helpers import http_server, stdio_entry, write_servers


def run_p(llm, workspace, provider: str = "openai", env: dict | None = None):
    return run_cli(
        "--dir", str(workspace), "-p", "use the server", "--provider", provider,
        "--trust-project",  # -p starts a project's servers only when approved or opted in
        "--allowedTools", "mcp__old", "mcp__srv",  # -p asks before an MCP call: allowed here
        env={**provider_env(llm, provider), **(env or {})},
    )  # fmt: skip


def test_an_sse_server_runs_as_in_claude_code(llm, workspace):
    with http_server("sse") as url:
        write_servers(workspace / ".mcp.json", {"old": {"type": "sse", "url": url}})
        llm.call("mcp__old__echo", {"text": "over sse"})
        llm.reply("done")
        proc = run_p(llm, workspace, env={"UNICUM_MCP_TIMEOUT": "60"})
    assert proc.returncode == 0, proc.stderr
    results = [m["content"] for m in llm.requests[1].body["messages"] if m["role"] == "tool"]
    assert results[0].startswith("echo: over sse")


def test_an_mcp_image_reaches_a_vision_model_as_an_image_block(llm, workspace):
    write_servers(workspace / ".mcp.json", {"srv": stdio_entry()})
    llm.call("mcp__srv__picture", {})
    llm.reply("I see a pixel")
    proc = run_p(
        llm, workspace, "anthropic", env={"UNICUM_IMAGES": "1", "UNICUM_MCP_TIMEOUT": "60"}
    )
    assert proc.returncode == 0, proc.stderr
    blocks = [
        b
        for m in llm.requests[1].body["messages"]
        if isinstance(m["content"], list)
        for b in m["content"]
        if b.get("type") == "tool_result"
    ]
    inner = blocks[0]["content"]
    kinds = [part.get("type") for part in inner] if isinstance(inner, list) else []
    assert "image" in kinds, json.dumps(blocks)[:500]
    image = next(part for part in inner if part.get("type") == "image")
    assert image["source"]["media_type"] == "image/png"


def test_a_text_only_model_gets_the_images_line_only(llm, workspace):
    write_servers(workspace / ".mcp.json", {"srv": stdio_entry()})
    llm.call("mcp__srv__picture", {})
    llm.reply("ok")
    proc = run_p(
        llm, workspace, "anthropic", env={"UNICUM_IMAGES": "0", "UNICUM_MCP_TIMEOUT": "60"}
    )
    assert proc.returncode == 0, proc.stderr
    sent = json.dumps(llm.requests[1].body["messages"])
    assert "[image: image/png, 70 bytes]" in sent and '"type": "image"' not in sent
