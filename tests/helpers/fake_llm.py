"""A scripted LLM server on loopback speaking OpenAI Chat Completions and Anthropic Messages.

It serves a queue of scripted steps (replies, HTTP errors, broken streams), records every
request body, and reports unexpected or unconsumed steps through `assert_done()`.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from tests.helpers.fake_llm_wire import (  # noqa: F401  (steps are part of this module's API)
    OVERFLOW_MESSAGES,
    Disconnect,
    HttpError,
    NotStream,
    Recorded,
    Reply,
    Step,
    StreamError,
    Truncated,
    _anthropic_events,
    _full_body,
    _openai_events,
    _stream_error,
    is_final_event,
    llama_cpp_no_jinja,
    llama_cpp_overflow,
)


class ScriptedLLM:
    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.requests: list[Recorded] = []
        self.errors: list[str] = []
        # what a local server tells about itself (None: the path is not served, 404)
        self.props: dict[str, Any] | None = None  # llama.cpp GET /props
        self.ollama_show: dict[str, Any] | None = None  # Ollama POST /api/show
        self.models: dict[str, Any] | None = None  # vLLM / llama.cpp GET /v1/models
        self.probes: list[str] = []  # paths of those requests, in order
        self.hang_probes = False  # those requests are read and never answered (until stop)
        self._released = threading.Event()
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
        self._released.set()
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

            def do_GET(self) -> None:  # noqa: N802
                server.probes.append(self.path)
                if server.hang_probes:
                    return self._hang()
                served = {"/props": server.props, "/v1/models": server.models}.get(self.path)
                if served is None:
                    return self._json(404, {"error": {"message": "File Not Found"}})
                self._json(200, served)

            def do_POST(self) -> None:  # noqa: N802
                length = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(length)
                if self.path == "/api/show":
                    server.probes.append(self.path)
                    if server.hang_probes:
                        return self._hang()
                    if server.ollama_show is None:
                        return self._json(404, {"error": "not found"})
                    return self._json(200, server.ollama_show)
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                rec = Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                rec.raw, rec.header_lines = raw, list(self.headers.items())
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
                if body.get("stream") and not isinstance(step, NotStream):
                    return self._stream(rec, reply, cut, step)
                return self._json(200, _full_body(rec, reply))

            def _hang(self) -> None:
                """A server that took the request and never answers it."""
                server._released.wait()
                self.close_connection = True

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
                if err.body is not None:
                    return self._json(err.status, err.body, err.headers)
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

            def _stream(self, rec: Recorded, reply: Reply, cut: int | None, step: Step) -> None:
                fail = step if isinstance(step, StreamError) else None
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("transfer-encoding", "chunked")
                self.send_header("connection", "close")
                self.end_headers()
                events = (_anthropic_events if rec.wire == "anthropic" else _openai_events)(
                    rec, reply
                )
                if isinstance(step, Truncated):
                    events = (e for e in list(events) if not is_final_event(e))
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
                        rec.sent = n + 1
                        if reply.delay:
                            time.sleep(reply.delay)
                    self.wfile.write(b"0\r\n\r\n")
                except (BrokenPipeError, ConnectionResetError):
                    rec.aborted = True
                self.close_connection = True

        return Handler
