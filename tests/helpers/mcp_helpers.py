"""MCP servers for the tests: entries for a session's config and an HTTP server on loopback."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.conftest import ROOT

SERVER = str(ROOT / "tests" / "helpers" / "mcp_server.py")


def stdio_entry(mode: str = "stdio", **extra: Any) -> dict[str, Any]:
    return {"command": sys.executable, "args": [SERVER, mode], **extra}


def write_servers(path: Path, servers: dict[str, Any]) -> None:
    path.write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def http_server(mode: str = "http") -> Iterator[str]:
    """The test server over streamable HTTP (or `sse`) on a loopback port; yields its URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, SERVER, mode, str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 120  # a hang-guard: a loaded machine starts it slowly
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the MCP HTTP server did not start")
        yield f"http://127.0.0.1:{port}/{'sse' if mode == 'sse' else 'mcp'}"
    finally:
        proc.terminate()
        proc.wait(10)


def tool_results(body: dict[str, Any]) -> list[str]:
    """The tool results an OpenAI-wire request carries, in order."""
    return [m["content"] for m in body["messages"] if m.get("role") == "tool"]


def tool_specs(body: dict[str, Any]) -> dict[str, Any]:
    return {t["function"]["name"]: t["function"] for t in body["tools"]}
