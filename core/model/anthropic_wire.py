"""Anthropic Messages wire format (also Zhipu GLM's Anthropic-compatible endpoint)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from core.model.fragments import FragmentCache, dumps, message_key
from core.model.identity import platform_headers, user_agent
from core.model.sse import anthropic_events
from my_agent.messages import (
    ImageBlock,
    Message,
    ModelResponse,
    ReasoningBlock,
    ReasoningDelta,
    StreamEvent,
    TextBlock,
    TextDelta,
    ToolCall,
    ToolCallDelta,
    ToolResult,
    Usage,
)

CACHE = {"type": "ephemeral"}

PATH = "/v1/messages"
SDK = "anthropic"  # the provider's SDK: its headers are sent, its model list read
API_VERSION = "2026-10-21"  # the `anthropic-version` this wire is written for (the SDK's)


def usage_from_anthropic(raw: dict[str, Any] | None) -> Usage:
    """`input_tokens` excludes cache reads and writes; total input is the sum of the three.
    No usage at all → an empty estimated record (the client counts locally)."""
    if not raw:
        return Usage(estimated=True)
    return Usage(
        input=raw.get("input_tokens") or 0,
        cache_read=raw.get("cache_read_input_tokens") or 0,
        cache_write=raw.get("cache_creation_input_tokens") or 0,
        output=raw.get("output_tokens") or 0,
    )


def _block_to_wire(block: Any, with_reasoning: bool = False) -> dict[str, Any] | None:
    if isinstance(block, TextBlock):
        return {"type": "text", "text": block.text} if block.text else None
    if isinstance(block, ReasoningBlock):
        if not block.signature and not (with_reasoning and block.text):
            return None  # Anthropic rejects unsigned thinking; GLM wants its thinking back
        return {"type": "thinking", "thinking": block.text, "signature": block.signature}
    if isinstance(block, ToolCall):
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.arguments}
    if isinstance(block, ImageBlock):
        return image_to_wire(block)
    if isinstance(block, ToolResult):
        content: str | list[dict[str, Any]] = block.content or "(no output)"
        if block.images:
            content = [{"type": "text", "text": content}, *map(image_to_wire, block.images)]
        return {
            "type": "tool_result",
            "tool_use_id": block.call_id,
            "content": content,
            "is_error": block.is_error,
        }
    return None


def image_to_wire(block: ImageBlock) -> dict[str, Any]:
    source = {"type": "base64", "media_type": block.media_type, "data": block.data}
    return {"type": "image", "source": source}


def messages_to_wire(messages: list[Message], with_reasoning: bool = False) -> list[dict[str, Any]]:
    """Canonical → Anthropic, merging consecutive same-role messages (the API wants alternation)."""
    out: list[dict[str, Any]] = []
    for msg in messages:
        blocks = [b for b in (_block_to_wire(b, with_reasoning) for b in msg.blocks) if b]
        if not blocks:
            continue
        if out and out[-1]["role"] == msg.role:
            merged = out[-1]["content"] + blocks
            # tool results must lead a user turn
            merged.sort(key=lambda b: b["type"] != "tool_result")
            out[-1]["content"] = merged
        else:
            out.append({"role": msg.role, "content": blocks})
    return out


def encode_messages(
    messages: list[Message], with_reasoning: bool, cache: FragmentCache
) -> list[bytes]:
    """`messages_to_wire` with its cache breakpoints, serialized: the pieces of its JSON array,
    joined without copying them. Each message's blocks are serialized once per content."""
    runs: list[list[_Turn]] = []  # same-role messages, merged into one wire message
    for msg in messages:
        key = message_key(msg, ("anthropic", with_reasoning))  # one cache may serve both wires
        turn = cache.get(key, _Turn, msg, with_reasoning)
        if not turn.blocks:
            continue
        if runs and runs[-1][0].role == msg.role:
            runs[-1].append(turn)
        else:
            runs.append([turn])
    pieces = [run[0].whole if len(run) == 1 else _joined(run, False) for run in runs]
    for index in [i for i, run in enumerate(runs) if run[0].role == "user"][-2:]:
        pieces[index] = _joined(runs[index], True)
    if pieces:
        pieces[0] = pieces[0][1:]  # each piece leads with its comma but the first
    return [b"[", *pieces, b"]"]


_MARK = b',"cache_control":' + dumps(CACHE) + b"}"


class _Turn:
    """One message's wire blocks, serialized: each block, whether it is a tool result, and
    the whole message as sent when nothing merges into it and it carries no breakpoint."""

    __slots__ = ("blocks", "results", "role", "whole")

    def __init__(self, msg: Message, with_reasoning: bool) -> None:
        wire = [b for b in (_block_to_wire(b, with_reasoning) for b in msg.blocks) if b]
        self.role = msg.role
        self.blocks = [dumps(b) for b in wire]
        self.results = [b["type"] == "tool_result" for b in wire]
        self.whole = _message_bytes(msg.role, self.blocks) if wire else b""

    def __len__(self) -> int:  # its size in the cache
        return 2 * len(self.whole) + 1


def _joined(run: list[_Turn], marked: bool) -> bytes:
    """Merged messages (tool results first, as the API wants them to lead a user turn), with
    the cache breakpoint on the last block when `marked`."""
    if len(run) == 1:
        blocks = list(run[0].blocks)
    else:
        pairs = [pair for turn in run for pair in zip(turn.results, turn.blocks, strict=True)]
        pairs.sort(key=lambda pair: not pair[0])
        blocks = [block for _, block in pairs]
    if marked:
        blocks[-1] = blocks[-1][:-1] + _MARK
    return _message_bytes(run[0].role, blocks)


def _message_bytes(role: str, blocks: list[bytes]) -> bytes:
    """The message as an array element after another (leading with a comma)."""
    return b',{"role":"' + role.encode() + b'","content":[' + b",".join(blocks) + b"]}"


def build_request(
    model: str,
    system: str,
    messages: list[Message],
    tools: list[dict[str, Any]],
    max_tokens: int,
    *,
    max_completion_tokens: bool = False,  # an OpenAI-wire setting: not used here
    with_reasoning: bool = False,
) -> dict[str, Any]:
    """Tools, then system, then messages: the order the prompt cache reads them in.

    Breakpoints (at most 4): the last tool, the system prompt, the newest message and the
    newest message of the previous request, so each request reads what the last one wrote.
    """
    request: dict[str, Any] = {"model": model, "max_tokens": max_tokens}
    request.update(_head(model, system, tools))
    wire_messages = messages_to_wire(messages, with_reasoning)
    users = [i for i, m in enumerate(wire_messages) if m["role"] == "user"]
    for index in users[-2:]:
        _mark(wire_messages, index)
    request["messages"] = wire_messages
    return request


def body_parts(
    model: str,
    system: str,
    messages: list[Message],
    tools: list[dict[str, Any]],
    cache: FragmentCache,
    *,
    max_completion_tokens: bool = False,
    with_reasoning: bool = False,
) -> tuple[list[bytes], str]:
    """`build_request` streamed, serialized but for its token limit, whose key is returned:
    the client fits the value to the window and closes the object."""
    parts = [dumps(_head(model, system, tools))[:-1] + b',"messages":']
    parts += encode_messages(messages, with_reasoning, cache)
    parts.append(b',"stream":true')
    return parts, "max_tokens"


def _head(model: str, system: str, tools: list[dict[str, Any]]) -> dict[str, Any]:
    head: dict[str, Any] = {"model": model}
    if tools:
        wire_tools = [
            {"name": t["name"], "description": t["description"], "input_schema": t["parameters"]}
            for t in tools
        ]
        wire_tools[-1]["cache_control"] = CACHE
        head["tools"] = wire_tools
    if system:
        head["system"] = [{"type": "text", "text": system, "cache_control": CACHE}]
    return head


def _mark(wire_messages: list[dict[str, Any]], index: int) -> None:
    """Cache breakpoint on a message's last block (a copy: canonical history is untouched)."""
    msg = wire_messages[index]
    last = {**msg["content"][-1], "cache_control": CACHE}
    wire_messages[index] = {**msg, "content": msg["content"][:-1] + [last]}


def _as_dict(obj: Any) -> dict[str, Any]:
    if obj is None:
        return {}
    if isinstance(obj, dict):
        return obj
    return obj.model_dump() if hasattr(obj, "model_dump") else dict(obj)


class StreamAssembler:
    """Turns Anthropic SSE events into a ModelResponse, emitting deltas as they arrive."""

    def __init__(self, emit: Callable[[StreamEvent], None]) -> None:
        self.emit = emit
        self.blocks: dict[int, dict[str, Any]] = {}
        self.usage: dict[str, Any] = {}
        self.stop_reason = ""
        self.model = ""
        self.started = False  # anything shown to the user yet
        self.opened = False  # the server accepted the request and began streaming

    def feed(self, event: Any) -> None:
        """One SSE event, as the raw JSON object (or an SDK model of it)."""
        e = _as_dict(event)
        kind = e.get("type")
        if kind == "message_start":
            msg = _as_dict(e.get("message"))
            self.model = msg.get("model") or ""
            self.usage.update(
                {k: v for k, v in _as_dict(msg.get("usage")).items() if v is not None}
            )
        elif kind == "content_block_start":
            self._start(e["index"], _as_dict(e.get("content_block")))
        elif kind == "content_block_delta":
            self._delta(e["index"], _as_dict(e.get("delta")))
        elif kind == "message_delta":
            self.stop_reason = _as_dict(e.get("delta")).get("stop_reason") or self.stop_reason
            # message_delta usage is cumulative: later values replace earlier ones
            self.usage.update({k: v for k, v in _as_dict(e.get("usage")).items() if v is not None})

    def _start(self, index: int, block: dict[str, Any]) -> None:
        kind = block.get("type")
        self.blocks[index] = {
            "type": kind,
            "text": block.get("text", "") or "",
            "thinking": block.get("thinking", "") or "",
            "signature": "",
            "id": block.get("id", ""),
            "name": block.get("name", ""),
            "json": "",
        }
        if kind == "tool_use":
            self.started = True
            self.emit(ToolCallDelta(index, block.get("name", "")))

    def _delta(self, index: int, delta: dict[str, Any]) -> None:
        block = self.blocks.setdefault(
            index,
            {
                "type": "text",
                "text": "",
                "thinking": "",
                "signature": "",
                "id": "",
                "name": "",
                "json": "",
            },
        )
        kind = delta.get("type")
        if kind == "text_delta":
            block["text"] += delta["text"]
            self.started = True
            self.emit(TextDelta(delta["text"]))
        elif kind == "thinking_delta":
            block["thinking"] += delta["thinking"]
            self.started = True
            self.emit(ReasoningDelta(delta["thinking"]))
        elif kind == "signature_delta":
            block["signature"] += delta["signature"]
        elif kind == "input_json_delta":
            block["json"] += delta.get("partial_json", "")

    def result(self) -> ModelResponse:
        blocks: list[Any] = []
        for index in sorted(self.blocks):
            b = self.blocks[index]
            if b["type"] == "text" and b["text"]:
                blocks.append(TextBlock(b["text"]))
            elif b["type"] == "thinking":
                blocks.append(ReasoningBlock(b["thinking"], b["signature"]))
            elif b["type"] == "tool_use":
                blocks.append(_tool_call(b["id"], b["name"], b["json"]))
        return ModelResponse(
            Message("assistant", blocks),
            usage_from_anthropic(self.usage),
            self.stop_reason,
            self.model,
        )


def _tool_call(call_id: str, name: str, raw: str) -> ToolCall:
    try:
        args = json.loads(raw) if raw.strip() else {}
    except ValueError:
        args = {}
    return ToolCall(call_id, name, args if isinstance(args, dict) else {}, raw)


def headers(api_key: str | None, timeout: float) -> list[tuple[str, str]]:
    """The Anthropic SDK's headers, in its order and spelling (`x-stainless-timeout` is what
    its request template has always said: no per-request timeout was given)."""
    return [
        ("x-stainless-timeout", "NOT_GIVEN"),
        ("x-stainless-retry-count", "0"),
        ("x-stainless-read-timeout", str(timeout)),
        ("Accept", "application/json"),
        ("content-type", "application/json"),
        ("User-Agent", user_agent(SDK)),
        *platform_headers(SDK),
        ("Authorization", f"Bearer {api_key or 'none'}"),  # Zhipu's endpoint documents it too
        ("X-Stainless-Async", "false"),
        ("anthropic-version", API_VERSION),
    ]


read_events = anthropic_events
