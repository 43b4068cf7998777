"""A scripted LLM server on loopback speaking OpenAI Chat Completions and Anthropic Messages.

It serves a queue of scripted steps (replies, HTTP errors, broken streams), records every
request body, and reports unexpected or unconsumed steps through `assert_done()`.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
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


@dataclass
class HttpError:
    status: int
    message: str = "scripted error"
    headers: dict[str, str] = field(default_factory=dict)
    code: str = ""  # provider error code/type, e.g. "insufficient_quota"; default from status


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


Step = Reply | HttpError | Disconnect | StreamError


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    aborted: bool = False  # the client hung up before the stream ended
    at: float = field(default_factory=time.monotonic)  # when the request arrived

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


class ScriptedLLM:
    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.requests: list[Recorded] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        self._server.daemon_threads = True
        # a short poll interval makes stop() (and so each test's teardown) quick
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.02,), daemon=True
        )

    # --- scripting -------------------------------------------------------------------------
    def add(self, *steps: Step) -> ScriptedLLM:
        self.steps.extend(steps)
        return self

    def reply(self, text: str = "", **kwargs: Any) -> ScriptedLLM:
        return self.add(Reply(text=text, **kwargs))

    def call(self, name: str, args: dict[str, Any], text: str = "", **kwargs: Any) -> ScriptedLLM:
        return self.add(Reply(text=text, tool_calls=[(name, args)], **kwargs))

    # --- lifecycle -------------------------------------------------------------------------
    def start(self) -> ScriptedLLM:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def openai_url(self) -> str:
        return self.url + "/v1"

    def assert_done(self) -> None:
        problems = list(self.errors)
        if self.steps:
            problems.append(f"{len(self.steps)} scripted step(s) never requested: {self.steps}")
        assert not problems, "; ".join(problems)

    # --- serving ---------------------------------------------------------------------------
    def _next(self, recorded: Recorded) -> Step | None:
        with self._lock:
            self.requests.append(recorded)
            if not self.steps:
                self.errors.append(f"unexpected request #{len(self.requests)} to {recorded.path}")
                return None
            return self.steps.pop(0)

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                rec = Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                if not (self.path.endswith("/messages") or self.path.endswith("/chat/completions")):
                    server.errors.append(f"unknown path {self.path}")
                    return self._json(404, {"error": {"message": "not found"}})
                step = server._next(rec)
                if step is None:
                    return self._error(rec, HttpError(400, "scripted server: no step left"))
                if isinstance(step, HttpError):
                    return self._error(rec, step)
                reply = step if isinstance(step, Reply) else step.reply
                cut = step.after_events if isinstance(step, Disconnect) else None
                if body.get("stream"):
                    return self._stream(
                        rec, reply, cut, step if isinstance(step, StreamError) else None
                    )
                return self._json(200, _full_body(rec, reply))

            def _json(
                self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
            ) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.send_header("connection", "close")
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)
                self.close_connection = True

            def _error(self, rec: Recorded, err: HttpError) -> None:
                if rec.wire == "anthropic":
                    kind = {
                        401: "authentication_error",
                        404: "not_found_error",
                        429: "rate_limit_error",
                        529: "overloaded_error",
                    }.get(err.status, "api_error" if err.status >= 500 else "invalid_request_error")
                    payload = {
                        "type": "error",
                        "error": {"type": err.code or kind, "message": err.message},
                    }
                else:
                    payload = {
                        "error": {
                            "message": err.message,
                            "type": "error",
                            "code": err.code or str(err.status),
                        }
                    }
                self._json(err.status, payload, err.headers)

            def _stream(
                self, rec: Recorded, reply: Reply, cut: int | None, fail: StreamError | None = None
            ) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("transfer-encoding", "chunked")
                self.send_header("connection", "close")
                self.end_headers()
                events = (_anthropic_events if rec.wire == "anthropic" else _openai_events)(
                    rec, reply
                )
                if fail is not None:
                    events = itertools.chain(
                        itertools.islice(events, fail.after_events), [_stream_error(rec, fail)]
                    )
                try:
                    for n, chunk in enumerate(events):
                        if cut is not None and n >= cut:
                            self.wfile.write(b"5\r\nda")  # a torn chunk, then hang up
                            self.wfile.flush()
                            self.connection.shutdown(2)
                            return
                        data = chunk.encode()
                        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                        self.wfile.flush()
                        if reply.delay:
                            time.sleep(reply.delay)
                    self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    rec.aborted = True
                self.close_connection = True

        return Handler


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
                        "id": f"call_{next(_ids)}",
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
