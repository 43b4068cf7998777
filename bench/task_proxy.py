"""A loopback proxy in front of the model server that counts what each agent really sends:
requests, the tools its first request offered, and the usage the server reported in each reply
(JSON or a stream's chunks). Bytes pass through unchanged and streams stay streams."""

from __future__ import annotations

import http.client
import json
import threading
import time
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

HOP_HEADERS = {"connection", "transfer-encoding", "content-length", "keep-alive", "host"}


@dataclass
class Counts:
    requests: int = 0
    prompt_tokens: int = 0  # as the server reported in each reply's usage
    output_tokens: int = 0
    tools: list[str] = field(default_factory=list)  # offered by the first request

    def add_body(self, body: bytes) -> None:
        self.requests += 1
        if self.requests > 1:
            return
        try:
            sent = json.loads(body or b"{}")
        except ValueError:
            return
        for tool in sent.get("tools") or []:
            name = (tool.get("function") or tool).get("name")
            self.tools.append(str(name))

    def add_reply(self, data: bytes) -> None:
        """The last usage object in the reply: a JSON body's, or a stream's last chunk with one."""
        usage: dict[str, Any] = {}
        for part in [data, *(line[5:] for line in data.splitlines() if line.startswith(b"data:"))]:
            try:
                found = json.loads(part)
            except ValueError:
                continue
            if isinstance(found, dict) and isinstance(found.get("usage"), dict):
                usage = found["usage"]
        self.prompt_tokens += int(usage.get("prompt_tokens") or 0)
        self.output_tokens += int(usage.get("completion_tokens") or 0)


class CountingProxy:
    """`start()`, point the agent at `url` (same path as the upstream), read `counts`, `stop()`."""

    def __init__(self, upstream: str) -> None:
        parts = urlsplit(upstream)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.path = parts.path.rstrip("/")
        self.counts = Counts()
        self.lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}{self.path}"

    def reset(self) -> Counts:
        with self.lock:
            done, self.counts = self.counts, Counts()
        return done

    def start(self) -> CountingProxy:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                return None

            def do_GET(self) -> None:  # noqa: N802
                self._forward(b"")

            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path.endswith("/completions"):
                    with proxy.lock:
                        proxy.counts.add_body(body)
                self._forward(body)

            def _forward(self, body: bytes) -> None:
                conn = http.client.HTTPConnection(proxy.host, proxy.port, timeout=3600)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_HEADERS}
                try:
                    conn.request(self.command, self.path, body=body or None, headers=headers)
                    reply = conn.getresponse()
                except OSError as exc:
                    self.send_error(502, f"upstream: {exc}")
                    return
                self.send_response(reply.status)
                for key, value in reply.getheaders():
                    if key.lower() not in HOP_HEADERS:
                        self.send_header(key, value)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                seen = bytearray()
                try:
                    while chunk := reply.read1(65536):
                        seen += chunk
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        self.wfile.flush()
                    self.wfile.write(b"0\r\n\r\n")
                except OSError:  # the agent went away (its run timed out): nothing to send
                    self.close_connection = True
                finally:
                    conn.close()
                if self.path.endswith("/completions"):
                    with proxy.lock:
                        proxy.counts.add_reply(bytes(seen))

        return Handler


def server_metrics(base_url: str) -> dict[str, float]:
    """llama-server's own counters (`--metrics`): prompt tokens computed, tokens generated;
    {} when the server has no /metrics."""
    parts = urlsplit(base_url)
    url = f"{parts.scheme}://{parts.netloc}/metrics"
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            text = reply.read().decode("utf-8", "replace")
    except OSError:
        return {}
    found = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name.startswith("llamacpp:") and not line.startswith("#"):
            try:
                found[name.removeprefix("llamacpp:")] = float(value)
            except ValueError:
                continue
    return found


def wait_idle(base_url: str, limit: float = 600.0, step: float = 2.0) -> float:
    """Wait until llama-server (GET /slots) works on no request: a run timed out with its
    request still generating must not be charged to the next one. Seconds waited; at once when
    the server has no /slots."""
    parts = urlsplit(base_url)
    url = f"{parts.scheme}://{parts.netloc}/slots"
    started = time.monotonic()
    while time.monotonic() - started < limit:
        try:
            with urllib.request.urlopen(url, timeout=10) as reply:
                slots = json.loads(reply.read() or b"[]")
        except (OSError, ValueError):
            break
        if not any(isinstance(s, dict) and s.get("is_processing") for s in slots):
            break
        time.sleep(step)
    return time.monotonic() - started
