"""The fixed prompt Unicum really sends: measured from the CLI's own first request.

    python bench/fixed_prompt.py [--dir PROJECT] [--provider anthropic|openai]

`cli.py -p` runs against a loopback server that records the first request body and answers it
with an authentication error (never retried), so nothing but the request is built. The fixed
prompt is what every request carries before the messages: the system text and the tool
schemas, as sent on the wire; both wires unless `--provider` names one (the OpenAI wire wraps
each tool in more JSON). tests/bench/test_replay_honesty.py compares it with what the CLI
sends to the scripted test server, and the replay charges each wire's bill with its own.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from my_agent.tokens import estimate_tokens  # noqa: E402

TASK = "Fix the failing test in the project and run the tests."  # what the first request asks


@dataclass(frozen=True)
class FixedPrompt:
    system: int  # estimated tokens of the system text
    tools: int  # ... of the tool schemas as sent (JSON)
    code_map: int  # ... of the code-map overview inside the system text

    @property
    def tokens(self) -> int:
        return self.system + self.tools


def system_text(body: dict[str, Any]) -> str:
    """The system text of a recorded request body, on either wire."""
    system = body.get("system")
    if isinstance(system, list):
        return "\n".join(b.get("text", "") for b in system if isinstance(b, dict))
    if isinstance(system, str):
        return system
    first = (body.get("messages") or [{}])[0]
    return str(first.get("content", "")) if first.get("role") == "system" else ""


def measure(body: dict[str, Any]) -> FixedPrompt:
    """The fixed prompt of one recorded first request."""
    text = system_text(body)
    tools = json.dumps([_unmarked(t) for t in body.get("tools") or []])
    overview = (
        text.split("## Code Map\n", 1)[1].split("\n## ", 1)[0] if "## Code Map\n" in text else ""
    )
    return FixedPrompt(
        estimate_tokens(text),
        estimate_tokens(tools) if body.get("tools") else 0,
        estimate_tokens(overview),
    )


def _unmarked(tool: object) -> object:
    """A tool as the model reads it: Anthropic's `cache_control` marks where a cache entry ends
    and is not part of the prompt."""
    return (
        {k: v for k, v in tool.items() if k != "cache_control"} if isinstance(tool, dict) else tool
    )


class _Capture(BaseHTTPRequestHandler):
    bodies: list[dict[str, Any]]

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        body = self._body()
        if not self.path.rstrip("/").endswith(("/messages", "/chat/completions")):
            self.send_response(404)  # a local server's probes: not a cloud endpoint
            self.send_header("content-length", "0")
            self.end_headers()
            return
        try:
            self.bodies.append(json.loads(body or b"{}"))
        except ValueError:
            pass
        payload = json.dumps(
            {"type": "error", "error": {"type": "authentication_error", "message": "bench"}}
        ).encode()
        self.send_response(401)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def _body(self) -> bytes:
        if "chunked" not in self.headers.get("transfer-encoding", ""):
            return self.rfile.read(int(self.headers.get("content-length") or 0))
        data = b""
        while size := int(self.rfile.readline().strip() or b"0", 16):
            data += self.rfile.read(size)
            self.rfile.readline()
        self.rfile.readline()
        return data

    def log_message(self, *args: object) -> None:
        return None


def first_request(workspace: Path, provider: str = "anthropic", timeout: float = 120) -> dict:
    """The body of the CLI's first request for `TASK` in `workspace` (a fresh Unicum home)."""
    handler = type("Capture", (_Capture,), {"bodies": []})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with tempfile.TemporaryDirectory(prefix="unicum-fixed-") as home:
            trusted = {"folders": [str(workspace.resolve())]}
            Path(home, "trusted.json").write_text(json.dumps(trusted))
            env = {**os.environ, "UNICUM_HOME": home, **_provider_env(provider, url)}
            subprocess.run(
                [sys.executable, str(ROOT / "cli.py"), "--provider", provider, "-p", TASK],
                cwd=workspace,
                env=env,
                capture_output=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
                check=False,
            )
    finally:
        server.shutdown()
        server.server_close()
    found = [b for b in handler.bodies if "messages" in b]
    if not found:
        raise RuntimeError(f"the CLI sent no request for {workspace}")
    return found[0]


def _provider_env(provider: str, url: str) -> dict[str, str]:
    """The loopback server stands in for the provider's cloud service (not a local server:
    that would get the lean tool set and its JSON schemas)."""
    cloud = {"UNICUM_PROVIDER_PRICES": "1"}
    return {**cloud, **_keys(provider, url)}


def _keys(provider: str, url: str) -> dict[str, str]:
    if provider == "anthropic":
        return {"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "fake-bench-key"}
    return {"OPENAI_BASE_URL": f"{url}/v1", "OPENAI_API_KEY": "fake-bench-key"}


WIRES = ("anthropic", "openai")  # the two wire formats: Anthropic's and OpenAI's chat


@cache
def cli_fixed_prompt(workspace: Path = ROOT, provider: str = "anthropic") -> FixedPrompt:
    """What the CLI sends before the messages, for a session in `workspace` (default: this
    repository, a mid-size project whose code map fills the overview's budget)."""
    return measure(first_request(workspace, provider))


def cli_fixed_prompts(workspace: Path = ROOT) -> dict[str, FixedPrompt]:
    """Both wires' fixed prompts (measured side by side: each run is a CLI start)."""
    with ThreadPoolExecutor(len(WIRES)) as pool:
        found = pool.map(lambda wire: cli_fixed_prompt(workspace, wire), WIRES)
        return dict(zip(WIRES, found, strict=True))


def describe(wire: str, found: FixedPrompt) -> str:
    return (
        f"{wire} wire: fixed prompt {found.tokens:,} tokens: system {found.system:,} "
        f"(code map {found.code_map:,}), tool schemas {found.tools:,}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, default=ROOT, help="the project (default: this repo)")
    parser.add_argument("--provider", choices=WIRES, help="one wire only (default: both)")
    args = parser.parse_args(argv)
    workspace = args.dir.resolve()
    if args.provider:
        found = {args.provider: cli_fixed_prompt(workspace, args.provider)}
    else:
        found = cli_fixed_prompts(workspace)
    for wire, prompt in found.items():
        print(describe(wire, prompt))
    return 0


if __name__ == "__main__":
    sys.exit(main())
