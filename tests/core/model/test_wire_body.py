"""The request body is serialized from pieces cached by content: what the scripted server
receives is the wire conversion of the history as it is now, whether a message was sent
before, changed in place since, or rebuilt by a compaction; through the real SDKs."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.model import PROFILES, ModelClient, ResolvedProvider, WireFormat
from my_agent.messages import (
    ImageBlock,
    Message,
    ReasoningBlock,
    TextBlock,
    ToolCall,
    ToolResult,
    user_text,
)

TOOLS = [{"name": "read_file", "description": "Read a file.", "parameters": {"type": "object"}}]
IMAGE = ImageBlock("image/png", "iVBORw0KGgo=", "shot.png")
# deepseek: reasoning goes back with tool calls; zhipu: unsigned thinking goes back too
PROVIDERS = ["openai", "anthropic", "deepseek", "zhipu", "openai-compatible"]


def history() -> list[Message]:
    """Every shape the wires treat specially: consecutive user turns and an empty assistant
    turn between them (merged), images, reasoning, list arguments, empty and error results."""
    return [
        user_text("Fix the parser. 修复解析器"),
        user_text("It fails on é."),
        Message("assistant", []),
        user_text("Still there?"),
        Message(
            "assistant",
            [
                ReasoningBlock("Read it first.", "sig=="),
                TextBlock("Reading."),
                ToolCall("c1", "read_file", {"path": "p.py", "lines": [1, 40]}, ""),
                ToolCall("c2", "read_file", {"path": "q.py"}, '{"path":"q.py"}'),
            ],
        ),
        Message(
            "user",
            [
                ToolResult("c1", "def parse(x):\n    return x  # é", images=[IMAGE]),
                ToolResult("c2", "", is_error=True),
                TextBlock("Look at this too."),
                IMAGE,
            ],
        ),
        Message("assistant", [TextBlock("")]),
        Message("user", [TextBlock("Go on."), ToolResult("c3", "late result")]),
        Message("assistant", [ToolCall("c4", "read_file", {"path": "r.py"}, "")]),
        Message("user", [ToolResult("c4", "你好，世界")]),
    ]


def expected(client: ModelClient, messages: list[Message], sent: dict) -> dict:
    """What `build_request` (the structural conversion the wire tests pin) says to send."""
    request = client.build_request("sys", messages, TOOLS)
    key = "max_completion_tokens" if "max_completion_tokens" in request else "max_tokens"
    assert 256 <= sent[key] <= request[key]
    return {**request, key: sent[key], "stream": True}


def send(llm, client: ModelClient, messages: list[Message]) -> dict:
    llm.reply("ok")
    client.stream("sys", messages, TOOLS, lambda event: None)
    return llm.requests[-1].body


def tool_contents(body: dict) -> list:
    if "system" in body or body["messages"][0]["role"] != "system":  # Anthropic
        blocks = [b for m in body["messages"] for b in m["content"]]
        return [b["content"] for b in blocks if b["type"] == "tool_result"]
    return [m["content"] for m in body["messages"] if m["role"] == "tool"]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_body_follows_the_history_sent_again_changed_and_compacted(llm, provider):
    profile = PROFILES[provider]
    url = llm.url if profile.wire is WireFormat.ANTHROPIC else llm.openai_url
    client = ModelClient(ResolvedProvider(profile, "m", url, "fake-test-key"))
    messages = history()
    first = send(llm, client, messages)
    assert first == expected(client, messages, first)
    assert send(llm, client, messages) == first  # from the cache: the same request

    messages[-1].blocks[0].content = "changed in place"  # a hook appending to a result
    messages[4].blocks[2].arguments["path"] = "other.py"
    changed = send(llm, client, messages)
    assert changed == expected(client, messages, changed)
    assert tool_contents(changed)[-1] == "changed in place"

    # a compaction's view: new objects, a shortened result, an older message dropped
    compacted = [messages[0], *messages[3:]]
    result, *rest = compacted[3].blocks
    compacted[3] = Message("user", [replace(result, content="[archived #1]", images=[]), *rest])
    shown = send(llm, client, compacted)
    assert shown == expected(client, compacted, shown)
    assert "[archived #1]" in tool_contents(shown)

    grown = [*compacted, Message("assistant", [TextBlock("Done: the parser is fixed.")])]
    grown.append(user_text("Thanks. Now the tests."))
    last = send(llm, client, grown)
    assert last == expected(client, grown, last)
    assert last != shown


def test_breakpoints_move_to_the_newest_user_turns(llm):
    """Anthropic: a message that carried a cache breakpoint loses it once two newer user
    turns follow, although its serialized form is cached."""
    client = ModelClient(ResolvedProvider(PROFILES["anthropic"], "m", llm.url, "fake-test-key"))
    messages = [user_text("one"), Message("assistant", [TextBlock("a")]), user_text("two")]
    body = send(llm, client, messages)
    marked = [m["content"][-1].get("cache_control") for m in body["messages"]]
    assert marked == [{"type": "ephemeral"}, None, {"type": "ephemeral"}]
    messages += [Message("assistant", [TextBlock("b")]), user_text("three")]
    body = send(llm, client, messages)
    marked = [m["content"][-1].get("cache_control") for m in body["messages"]]
    assert marked == [None, None, {"type": "ephemeral"}, None, {"type": "ephemeral"}]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_every_request_carries_the_sdks_own_headers(llm, provider):
    """The SDK's request is built once per client and sent with each new body: its auth,
    version and platform headers on every request, the length of each body its own."""
    profile = PROFILES[provider]
    url = llm.url if provider == "anthropic" else llm.openai_url
    client = ModelClient(ResolvedProvider(profile, "m", url, "fake-test-key"))
    messages = [user_text("short")]
    send(llm, client, messages)
    send(llm, client, [*messages, Message("assistant", [TextBlock("a" * 5000)]), user_text("b")])
    first, second = llm.requests
    for rec in (first, second):
        assert rec.headers["authorization"] == "Bearer fake-test-key"
        assert rec.headers["content-type"] == "application/json"
        assert rec.headers["user-agent"].startswith(
            "Anthropic/" if provider == "anthropic" else "OpenAI/"
        )
        assert rec.headers["x-stainless-retry-count"] == "0"
    if provider == "anthropic":
        assert first.headers["anthropic-version"] == second.headers["anthropic-version"] != ""
    assert int(second.headers["content-length"]) > int(first.headers["content-length"]) + 5000
