"""Client overhead per model request against a bare httpx POST of the same bytes, same run.

A loopback server answers every POST at once with the same short SSE stream, so what differs
is the client: `ModelClient.stream` (turn the canonical history into the request body, POST it
with httpx2 and our SSE reading, parse it into a response) against `httpx.Client.post` of the body,
streamed and read to the end ("its post" is the client's transport alone, on the same bytes;
"+dumps" is httpx with `json.dumps` of the already-built request dict). Each client request
ends with a turn it has never sent (as in a session, where a request adds a call and its
result), so its cache of serialized messages holds all but the newest turn. Also shown: the
SDK's `create(stream=True)` path the client used before (its per-call request transform).
Conversations of 40/200/400 messages, tool calls and tool results of realistic size, OpenAI and
Anthropic wire formats.

    python bench/wire.py [--runs 15] [--cpu]
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.model import PROFILES, ModelClient, ResolvedProvider  # noqa: E402
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, user_text  # noqa: E402

OPENAI_SSE = (
    b'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":'
    b'[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":null}]}\n\n'
    b'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":'
    b'[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n'
    b'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[],'
    b'"usage":{"prompt_tokens":10,"completion_tokens":1,"total_tokens":11}}\n\n'
    b"data: [DONE]\n\n"
)
ANTHROPIC_SSE = (
    b'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message",'
    b'"role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,'
    b'"usage":{"input_tokens":10,"output_tokens":1}}}\n\n'
    b'event: content_block_start\ndata: {"type":"content_block_start","index":0,'
    b'"content_block":{"type":"text","text":""}}\n\n'
    b'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,'
    b'"delta":{"type":"text_delta","text":"ok"}}\n\n'
    b'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n'
    b'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn",'
    b'"stop_sequence":null},"usage":{"output_tokens":1}}\n\n'
    b'event: message_stop\ndata: {"type":"message_stop"}\n\n'
)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args: Any) -> None:
        return

    def do_POST(self) -> None:  # noqa: N802
        self.rfile.read(int(self.headers.get("content-length") or 0))
        data = ANTHROPIC_SSE if self.path.endswith("/messages") else OPENAI_SSE
        head = (
            "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n"
            f"content-length: {len(data)}\r\n\r\n"
        )
        self.wfile.write(head.encode() + data)  # one write: no delayed-ACK stall


def turn(i: int) -> list[Message]:
    """Turn `i`: a tool call and its result (about 1.5 kB)."""
    args = {"path": f"src/module_{i}.py", "offset": i * 40, "limit": 120}
    call = ToolCall(f"call_{i}", "read_file", args, json.dumps(args))
    body = "\n".join(f"{k:4d}  def function_{k}(x):  return x * {k}  # é" for k in range(30))
    return [
        Message("assistant", [TextBlock(f"Reading module {i}."), call]),
        Message("user", [ToolResult(f"call_{i}", body)]),
    ]


def history(n: int) -> list[Message]:
    """`n` messages: a task, then tool calls and their results."""
    out: list[Message] = [user_text("Fix the failing test in the parser and explain the cause.")]
    while len(out) < n:
        out += turn(len(out) // 2 + 1)
    return out[:n]


def sessions(n: int, count: int) -> Iterator[list[Message]]:
    """`count` histories of `n` messages as a session sends them: the same older messages,
    then a turn never sent before (a new call id and result), so the client's cache of
    serialized messages misses on the newest turn every request, as it does in a session."""
    older = history(n)[:-2]
    return iter([older + turn(10_000 + k) for k in range(count)])


def interleaved(fns: dict[str, Any], runs: int, clock: Any = time.perf_counter) -> dict[str, float]:
    """Median ms of each function, run in turn (so load from other work hits all alike); the
    order rotates every round, so each follows every other equally often (a function runs
    slower right after one that churned the caches and the allocator)."""
    for fn in fns.values():
        fn()  # warm: connection, imports
    samples: dict[str, list[float]] = {name: [] for name in fns}
    order = list(fns.items())
    for run in range(runs):
        shift = run % len(order)
        for name, fn in order[shift:] + order[:shift]:
            start = clock()
            fn()
            samples[name].append((clock() - start) * 1000)
    return {name: statistics.median(values) for name, values in samples.items()}


def measure(wire: str, base: str, n: int, runs: int, clock: Any) -> dict[str, float]:
    import httpx

    from core.model import wire_adapter, wire_stream

    name = "anthropic" if wire == "anthropic" else "openai"
    url = base if wire == "anthropic" else base + "/v1"
    client = ModelClient(ResolvedProvider(PROFILES[name], "m", url, "fake-bench-key"))
    messages = history(n)
    tools = [{"name": "read_file", "description": "Read a file.", "parameters": {"type": "object"}}]
    request = client.build_request("system prompt", messages, tools)
    body = client.body("system prompt", messages, tools)
    path = "/v1/messages" if wire == "anthropic" else "/v1/chat/completions"
    nodelay = [(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)]
    bare_client = httpx.Client(timeout=30, transport=httpx.HTTPTransport(socket_options=nodelay))
    headers = {"content-type": "application/json", "authorization": "Bearer fake-bench-key"}
    sdk = client.sdk()
    adapter = wire_adapter(PROFILES[name].wire)
    post_via = client.sender()
    create = sdk.messages.create if wire == "anthropic" else sdk.chat.completions.create

    def bare(data: bytes = body) -> None:
        with bare_client.stream("POST", base + path, content=data, headers=headers) as reply:
            for _ in reply.iter_lines():
                pass

    def transformed() -> None:
        with create(**request, stream=True) as events:
            for _ in events:
                pass

    fresh = sessions(n, runs + 1)
    measured = interleaved(
        {
            "client": lambda: client.stream("system prompt", next(fresh), tools, lambda e: None),
            "post": lambda: wire_stream(post_via, body, adapter.StreamAssembler(lambda e: None)),
            "httpx": bare,
            "httpx+dumps": lambda: bare(json.dumps({**request, "stream": True}).encode()),
        },
        runs,
        clock,
    )
    # on its own: 10-100x slower, it would slow whatever ran after it
    return measured | interleaved({"create": transformed}, runs, clock)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time the process's CPU instead of the wall clock: steadier on a loaded machine "
        "(the loopback server's thread runs in this process and counts in every column alike)",
    )
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    what = "process CPU" if args.cpu else "wall clock"
    print(
        f"median of {args.runs} interleaved requests, ms of {what} "
        "(loopback server answers at once)"
    )
    print(
        f"{'wire':10} {'msgs':>5} {'client':>7} {'its post':>8} {'httpx':>6} {'post/httpx':>10}"
        f" {'+dumps':>7} {'client/(httpx+dumps)':>20} {'create()':>9}"
    )
    try:
        for wire in ("openai", "anthropic"):
            for n in (40, 200, 400):
                m = measure(wire, base, n, args.runs, clock)
                print(
                    f"{wire:10} {n:5d} {m['client']:7.2f} {m['post']:8.2f} {m['httpx']:6.2f}"
                    f" {m['post'] / m['httpx']:9.2f}x {m['httpx+dumps']:7.2f}"
                    f" {m['client'] / m['httpx+dumps']:19.2f}x {m['create']:9.2f}"
                )
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
