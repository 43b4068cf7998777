"""The scripted server's steps and how each is rendered in both wire formats (SSE included)."""

from __future__ import annotations

import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

_ids = itertools.count(1)


@dataclass
class Reply:
    text: str = ""
    tool_calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    reasoning: str = ""
    usage: dict[str, int] | None = None  # neutral: input, cache_read, cache_write, output
    raw_usage: dict[str, Any] | None = None  # provider-shaped usage sent as is
    chunk_size: int = 4  # characters per streamed text delta
    delay: float = 0.0  # seconds between streamed events
    signature: str = "sig=="  # Anthropic thinking signature; "" streams unsigned thinking (GLM)
    delta_usage: dict[str, Any] | None = None  # Anthropic: usage sent in message_delta
    omit_usage: bool = False  # OpenAI format: send no usage chunk (like some local servers)
    omit_call_ids: bool = False  # OpenAI format: tool calls with an empty id (some servers)


@dataclass
class HttpError:
    status: int
    message: str = "scripted error"
    headers: dict[str, str] = field(default_factory=dict)
    code: str = ""  # provider error code/type, e.g. "insufficient_quota"; default from status
    body: dict[str, Any] | None = None  # the error body sent as is (a local server's shape)


def llama_cpp_overflow(n_prompt: int = 2300, n_ctx: int = 2048) -> HttpError:
    """llama-server's answer to a prompt longer than its `-c` (tools/server, 2025)."""
    message = (
        f"the request exceeds the available context size ({n_prompt} tokens), try increasing it"
    )
    return HttpError(
        400,
        message,
        body={
            "error": {
                "code": 400,
                "message": message,
                "type": "exceed_context_size_error",
                "n_prompt_tokens": n_prompt,
                "n_ctx": n_ctx,
            }
        },
    )


def llama_cpp_no_jinja() -> HttpError:
    """llama-server without `--jinja` asked for tools: a 500 whose message is the cause."""
    message = "tools param requires --jinja flag"
    return HttpError(
        500, message, body={"error": {"code": 500, "message": message, "type": "server_error"}}
    )


OVERFLOW_MESSAGES = {
    "llama.cpp": "the request exceeds the available context size (2300 tokens), try increasing it",
    "vllm": (
        "This model's maximum context length is 2048 tokens. However, you requested 2400 "
        "tokens (2300 in the messages, 100 in the completion). Please reduce the length of "
        "the messages or completion."
    ),
    "ollama": "input length exceeds the context length",
    "lm-studio": (
        "Trying to keep the first 2300 tokens when context the overflows. However, the model "
        "is loaded with context length of only 2048 tokens, which is not enough. Try to load "
        "the model with a larger context length, or provide a shorter input"
    ),
}


@dataclass
class Disconnect:
    """Stream `reply` but drop the connection after `after_events` events."""

    reply: Reply
    after_events: int = 2


@dataclass
class StreamError:
    """Stream `reply` but, after `after_events` events, send an in-stream error event instead."""

    reply: Reply
    after_events: int = 1
    kind: str = "overloaded_error"
    status: int = 529
    message: str = "scripted in-stream error"


@dataclass
class Truncated:
    """Stream `reply` without its final events (OpenAI: the finish_reason chunk, usage and
    [DONE]; Anthropic: message_delta and message_stop), then end the body cleanly."""

    reply: Reply


@dataclass
class NotStream:
    """Answer a stream request with a plain HTTP 200 JSON body."""

    reply: Reply


def is_final_event(chunk: str) -> bool:
    return chunk.startswith(("event: message_delta", "event: message_stop")) or (
        '"finish_reason": "' in chunk or "[DONE]" in chunk or '"choices": []' in chunk
    )


Step = Reply | HttpError | Disconnect | StreamError | Truncated | NotStream


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    aborted: bool = False  # the client hung up before the stream ended
    sent: int = 0  # stream events written so far (a test can wait for the stream to be under way)
    at: float = field(default_factory=time.monotonic)  # when the request arrived
    raw: bytes = b""  # the body as it came
    header_lines: list[tuple[str, str]] = field(default_factory=list)  # in order, as spelled

    @property
    def wire(self) -> str:
        return "anthropic" if self.path.endswith("/messages") else "openai"


def _default_usage(body: dict[str, Any], reply: Reply) -> dict[str, int]:
    size = len(json.dumps(body))
    return {
        "input": size // 4,
        "cache_read": 0,
        "cache_write": 0,
        "output": max(1, (len(reply.text) + len(json.dumps(reply.tool_calls))) // 4),
    }


# --- wire rendering --------------------------------------------------------------------------
def _pieces(text: str, size: int) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)] if text else []


def _usage(rec: Recorded, reply: Reply) -> dict[str, int]:
    return {**_default_usage(rec.body, reply), **(reply.usage or {})}


def _anthropic_usage(u: dict[str, int]) -> dict[str, int]:
    return {
        "input_tokens": u["input"],
        "cache_creation_input_tokens": u["cache_write"],
        "cache_read_input_tokens": u["cache_read"],
        "output_tokens": u["output"],
    }


def _openai_usage(u: dict[str, int]) -> dict[str, Any]:
    prompt = u["input"] + u["cache_read"]
    return {
        "prompt_tokens": prompt,
        "completion_tokens": u["output"],
        "total_tokens": prompt + u["output"],
        "prompt_tokens_details": {"cached_tokens": u["cache_read"]},
    }


def _sse(event: str, data: dict[str, Any]) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def _anthropic_events(rec: Recorded, reply: Reply):
    usage = reply.raw_usage or _anthropic_usage(_usage(rec, reply))
    start_usage = {**usage, "output_tokens": 1}
    model = rec.body.get("model", "scripted")
    yield _sse(
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": f"msg_{next(_ids)}",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": start_usage,
            },
        },
    )
    yield _sse("ping", {"type": "ping"})
    index = 0
    if reply.reasoning:
        yield _sse(
            "content_block_start",
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "thinking", "thinking": ""},
            },
        )
        for piece in _pieces(reply.reasoning, reply.chunk_size):
            yield _sse(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "thinking_delta", "thinking": piece},
                },
            )
        if reply.signature:
            yield _sse(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "signature_delta", "signature": reply.signature},
                },
            )
        yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
        index += 1
    if reply.text:
        yield _sse(
            "content_block_start",
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {"type": "text", "text": ""},
            },
        )
        for piece in _pieces(reply.text, reply.chunk_size):
            yield _sse(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "text_delta", "text": piece},
                },
            )
        yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
        index += 1
    for name, args in reply.tool_calls:
        yield _sse(
            "content_block_start",
            {
                "type": "content_block_start",
                "index": index,
                "content_block": {
                    "type": "tool_use",
                    "id": f"toolu_{next(_ids)}",
                    "name": name,
                    "input": {},
                },
            },
        )
        for piece in _pieces(json.dumps(args), 12):
            yield _sse(
                "content_block_delta",
                {
                    "type": "content_block_delta",
                    "index": index,
                    "delta": {"type": "input_json_delta", "partial_json": piece},
                },
            )
        yield _sse("content_block_stop", {"type": "content_block_stop", "index": index})
        index += 1
    stop = "tool_use" if reply.tool_calls else "end_turn"
    yield _sse(
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": stop, "stop_sequence": None},
            "usage": reply.delta_usage or {"output_tokens": usage.get("output_tokens", 0)},
        },
    )
    yield _sse("message_stop", {"type": "message_stop"})


def _stream_error(rec: Recorded, fail: StreamError) -> str:
    if rec.wire == "anthropic":
        return _sse(
            "error", {"type": "error", "error": {"type": fail.kind, "message": fail.message}}
        )
    return (
        "data: "
        + json.dumps({"error": {"message": fail.message, "type": fail.kind, "code": fail.status}})
        + "\n\n"
    )


def _chunk(cid: str, model: str, delta: dict[str, Any], finish: str | None = None) -> str:
    return (
        "data: "
        + json.dumps(
            {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish}
                ],
            }
        )
        + "\n\n"
    )


def _openai_events(rec: Recorded, reply: Reply):
    cid, model = f"chatcmpl-{next(_ids)}", rec.body.get("model", "scripted")
    yield _chunk(cid, model, {"role": "assistant", "content": ""})
    for piece in _pieces(reply.reasoning, reply.chunk_size):
        yield _chunk(cid, model, {"reasoning_content": piece})
    for piece in _pieces(reply.text, reply.chunk_size):
        yield _chunk(cid, model, {"content": piece})
    for i, (name, args) in enumerate(reply.tool_calls):
        yield _chunk(
            cid,
            model,
            {
                "tool_calls": [
                    {
                        "index": i,
                        "id": "" if reply.omit_call_ids else f"call_{next(_ids)}",
                        "type": "function",
                        "function": {"name": name, "arguments": ""},
                    }
                ]
            },
        )
        for piece in _pieces(json.dumps(args), 12):
            yield _chunk(
                cid, model, {"tool_calls": [{"index": i, "function": {"arguments": piece}}]}
            )
    yield _chunk(cid, model, {}, "tool_calls" if reply.tool_calls else "stop")
    if (rec.body.get("stream_options") or {}).get("include_usage") and not reply.omit_usage:
        usage = reply.raw_usage or _openai_usage(_usage(rec, reply))
        yield (
            "data: "
            + json.dumps(
                {
                    "id": cid,
                    "object": "chat.completion.chunk",
                    "created": int(time.time()),
                    "model": model,
                    "choices": [],
                    "usage": usage,
                }
            )
            + "\n\n"
        )
    yield "data: [DONE]\n\n"


def _full_body(rec: Recorded, reply: Reply) -> dict[str, Any]:
    """Non-streaming response bodies."""
    calls = [(f"call_{next(_ids)}", n, a) for n, a in reply.tool_calls]
    if rec.wire == "anthropic":
        content: list[dict[str, Any]] = []
        if reply.text:
            content.append({"type": "text", "text": reply.text})
        content += [{"type": "tool_use", "id": i, "name": n, "input": a} for i, n, a in calls]
        return {
            "id": f"msg_{next(_ids)}",
            "type": "message",
            "role": "assistant",
            "model": rec.body.get("model"),
            "content": content,
            "stop_reason": "tool_use" if calls else "end_turn",
            "stop_sequence": None,
            "usage": reply.raw_usage or _anthropic_usage(_usage(rec, reply)),
        }
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if calls:
        message["tool_calls"] = [
            {"id": i, "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
            for i, n, a in calls
        ]
    return {
        "id": f"chatcmpl-{next(_ids)}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": rec.body.get("model"),
        "choices": [
            {"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}
        ],
        "usage": reply.raw_usage or _openai_usage(_usage(rec, reply)),
    }
