"""OpenAI Chat Completions wire format (OpenAI, OpenRouter, DeepSeek, Ollama, compatible servers)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable
from typing import Any

from core.model.fragments import FragmentCache, dumps, message_key
from core.model.identity import platform_headers, user_agent
from core.model.sse import openai_events
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

PATH = "/chat/completions"
SDK = "openai"  # the provider's SDK: its headers are sent, its model list read


def usage_from_openai(raw: dict[str, Any] | None) -> Usage:
    """`prompt_tokens` includes cached tokens (and OpenRouter's cache writes); DeepSeek reports
    hit/miss counts instead. No usage at all (some local servers) → an empty estimated record."""
    if not raw:
        return Usage(estimated=True)
    prompt = raw.get("prompt_tokens") or 0
    details = raw.get("prompt_tokens_details") or {}
    out_details = raw.get("completion_tokens_details") or {}
    written = details.get("cache_write_tokens") or 0
    if raw.get("prompt_cache_hit_tokens") is not None:
        cached = raw.get("prompt_cache_hit_tokens") or 0
        fresh = raw.get("prompt_cache_miss_tokens")
        fresh = prompt - cached if fresh is None else fresh
    else:
        cached = details.get("cached_tokens") or 0
        fresh = prompt - cached - written
    return Usage(
        input=max(0, fresh),
        cache_read=cached,
        cache_write=written,
        output=raw.get("completion_tokens") or 0,
        reasoning=out_details.get("reasoning_tokens") or 0,
    )


def _assistant_to_wire(msg: Message, with_reasoning: bool) -> dict[str, Any]:
    wire: dict[str, Any] = {"role": "assistant", "content": msg.text or None}
    calls = msg.tool_calls
    if calls:
        wire["tool_calls"] = [
            {
                "id": c.id,
                "type": "function",
                "function": {
                    "name": c.name,
                    "arguments": c.raw_arguments or json.dumps(c.arguments, ensure_ascii=False),
                },
            }
            for c in calls
        ]
    reasoning = "".join(b.text for b in msg.blocks if isinstance(b, ReasoningBlock))
    if with_reasoning and calls:
        # DeepSeek thinking mode answers 400 unless tool-call turns carry it back, even empty
        wire["reasoning_content"] = reasoning
    return wire


def messages_to_wire(
    system: str, messages: list[Message], with_reasoning: bool = False
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [{"role": "system", "content": system}]
    for msg in messages:
        if msg.role == "assistant":
            if msg.text or msg.tool_calls:
                out.append(_assistant_to_wire(msg, with_reasoning))
            continue
        shown: list[ImageBlock] = []  # images tool results returned: a user turn after them
        for block in msg.blocks:
            if isinstance(block, ToolResult):
                out.append(_tool_to_wire(block))
                shown += block.images
        _add_user_blocks(out, msg, shown)
    return out


def encode_messages(
    system: str, messages: list[Message], with_reasoning: bool, cache: FragmentCache
) -> list[bytes]:
    """`messages_to_wire` serialized: the pieces of its JSON array, joined without copying
    them (each message after the system one leads with its comma). Each assistant turn and
    tool result is serialized once per content; user text and images merge as there."""
    done = [b"[" + dumps({"role": "system", "content": system})]
    tail: list[dict[str, Any]] = [_NOT_USER]  # user messages later parts may still merge into
    for msg in messages:
        if msg.role == "assistant":
            key = message_key(msg, ("openai", with_reasoning))  # one cache may serve both wires
            piece = cache.get(key, _assistant, msg, with_reasoning)
            if piece:  # an empty turn sends nothing: the user messages around it merge
                _flush(tail, done)
                done.append(piece)
            continue
        shown: list[ImageBlock] = []
        other = False  # text or images besides the results
        for block in msg.blocks:
            if isinstance(block, ToolResult):
                _flush(tail, done)
                tool = ("tool", block.call_id, block.content)
                done.append(cache.get(tool, _tool_piece, block))
                shown += block.images
            else:
                other = True
        if shown or other:
            _add_user_blocks(tail, msg, shown)
    _flush(tail, done)
    done.append(b"]")
    return done


_NOT_USER: dict[str, Any] = {"role": ""}


def _assistant(msg: Message, with_reasoning: bool) -> bytes:
    return (
        b"," + dumps(_assistant_to_wire(msg, with_reasoning)) if msg.text or msg.tool_calls else b""
    )


def _tool_piece(block: ToolResult) -> bytes:
    return b"," + dumps(_tool_to_wire(block))


def _flush(tail: list[dict[str, Any]], done: list[bytes]) -> None:
    if len(tail) > 1:
        done.extend(b"," + dumps(message) for message in tail[1:])
        del tail[1:]


def _tool_to_wire(block: ToolResult) -> dict[str, Any]:
    return {
        "role": "tool",
        "tool_call_id": block.call_id,
        "content": block.content or "(no output)",
    }


def _add_user_blocks(out: list[dict[str, Any]], msg: Message, shown: list[ImageBlock]) -> None:
    """A user message's images from tool results, its text and its own images."""
    if shown:
        names = ", ".join(image.name for image in shown)
        _add_user(out, [{"type": "text", "text": f"[images the tools returned: {names}]"}])
        _add_user(out, [image_part(image) for image in shown])
    # text blocks are separate paragraphs (a compaction summary, then the next task)
    text = "\n\n".join(b.text for b in msg.blocks if isinstance(b, TextBlock) and b.text)
    if text:
        _add_user(out, [{"type": "text", "text": text}])
    images = [image_part(b) for b in msg.blocks if isinstance(b, ImageBlock)]
    if images:
        _add_user(out, images)


def image_part(block: ImageBlock) -> dict[str, Any]:
    url = f"data:{block.media_type};base64,{block.data}"
    return {"type": "image_url", "image_url": {"url": url}}


def _add_user(out: list[dict[str, Any]], parts: list[dict[str, Any]]) -> None:
    """Parts into a user message: a plain string while it is text only (what every
    compatible server reads), content parts once an image joins."""
    last = out[-1]
    if last["role"] != "user":
        last = {"role": "user", "content": ""}
        out.append(last)
    content = last["content"]
    current = [{"type": "text", "text": content}] if isinstance(content, str) else content
    current = [p for p in current if p.get("type") != "text" or p.get("text")]
    if current and current[-1].get("type") == "text" and parts[0].get("type") == "text":
        current[-1] = {"type": "text", "text": current[-1]["text"] + "\n\n" + parts[0]["text"]}
        parts = parts[1:]
    merged = current + parts
    if all(p.get("type") == "text" for p in merged):
        last["content"] = "\n\n".join(p["text"] for p in merged)
    else:
        last["content"] = merged


def build_request(
    model: str,
    system: str,
    messages: list[Message],
    tools: list[dict[str, Any]],
    max_tokens: int,
    *,
    max_completion_tokens: bool = False,
    with_reasoning: bool = False,
) -> dict[str, Any]:
    """Tools and the system message never change within a session and come first in the
    prompt, so automatic prefix caches (OpenAI, DeepSeek, Zhipu) keep hitting."""
    request: dict[str, Any] = {"model": model}
    if tools:
        request["tools"] = _wire_tools(tools)
    request["messages"] = messages_to_wire(system, messages, with_reasoning)
    request["stream_options"] = {"include_usage": True}
    request["max_completion_tokens" if max_completion_tokens else "max_tokens"] = max_tokens
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
    head: dict[str, Any] = {"model": model}
    if tools:
        head["tools"] = _wire_tools(tools)
    parts = [dumps(head)[:-1] + b',"messages":']
    parts += encode_messages(system, messages, with_reasoning, cache)
    parts.append(b',"stream_options":{"include_usage":true},"stream":true')
    return parts, "max_completion_tokens" if max_completion_tokens else "max_tokens"


def _wire_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": t["name"],
                "description": t["description"],
                "parameters": t["parameters"],
            },
        }
        for t in tools
    ]


def _get(obj: Any, name: str) -> Any:
    if obj is None:
        return None
    if isinstance(obj, dict):
        return obj.get(name)
    value = getattr(obj, name, None)
    if value is None and getattr(obj, "model_extra", None):
        value = obj.model_extra.get(name)
    return value


class StreamAssembler:
    def __init__(self, emit: Callable[[StreamEvent], None]) -> None:
        self.emit = emit
        self.text = ""
        self.reasoning = ""
        self.calls: dict[int, dict[str, str]] = {}
        self.usage: dict[str, Any] | None = None
        self.stop_reason = ""
        self.model = ""
        self.started = False  # anything shown to the user yet
        self.opened = False  # the server accepted the request and began streaming

    def feed(self, chunk: Any) -> None:
        self.model = _get(chunk, "model") or self.model
        usage = _get(chunk, "usage")
        if usage:
            self.usage = usage.model_dump() if hasattr(usage, "model_dump") else dict(usage)
        for choice in _get(chunk, "choices") or []:
            self.stop_reason = _get(choice, "finish_reason") or self.stop_reason
            self._delta(_get(choice, "delta"))

    def _delta(self, delta: Any) -> None:
        if delta is None:
            return
        reasoning = _get(delta, "reasoning_content") or _get(delta, "reasoning")
        if reasoning:
            self.reasoning += reasoning
            self.started = True
            self.emit(ReasoningDelta(reasoning))
        content = _get(delta, "content")
        if content:
            self.text += content
            self.started = True
            self.emit(TextDelta(content))
        for tc in _get(delta, "tool_calls") or []:
            index = _get(tc, "index") or 0
            slot = self.calls.setdefault(index, {"id": "", "name": "", "args": ""})
            fn = _get(tc, "function")
            slot["id"] = _get(tc, "id") or slot["id"]
            name = _get(fn, "name")
            if name and not slot["name"]:
                slot["name"] = name
                self.started = True
                self.emit(ToolCallDelta(index, name))
            slot["args"] += _get(fn, "arguments") or ""

    def result(self) -> ModelResponse:
        blocks: list[Any] = []
        if self.reasoning:
            blocks.append(ReasoningBlock(self.reasoning))
        if self.text:
            blocks.append(TextBlock(self.text))
        for index in sorted(self.calls):
            c = self.calls[index]
            try:
                args = json.loads(c["args"]) if c["args"].strip() else {}
            except ValueError:
                args = {}
            blocks.append(
                ToolCall(
                    c["id"] or f"call_{uuid.uuid4().hex[:12]}_{index}",  # unique in a session
                    c["name"],
                    args if isinstance(args, dict) else {},
                    c["args"],
                )
            )
        return ModelResponse(
            Message("assistant", blocks),
            usage_from_openai(self.usage),
            self.stop_reason,
            self.model,
        )


def headers(api_key: str | None, timeout: float) -> list[tuple[str, str]]:
    """The OpenAI SDK's headers, in its order and spelling."""
    return [
        ("authorization", f"Bearer {api_key or 'none'}"),
        ("accept", "application/json"),
        ("content-type", "application/json"),
        ("user-agent", user_agent(SDK)),
        *platform_headers(SDK),
        ("x-stainless-async", "false"),
        ("x-stainless-retry-count", "0"),
        ("x-stainless-read-timeout", str(timeout)),
    ]


read_events = openai_events
