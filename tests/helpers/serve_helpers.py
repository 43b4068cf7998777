"""`python cli.py serve --port 0` as a real process on loopback, for the HTTP and browser tests."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Served:
    url: str
    token: str
    home: Path
    proc: subprocess.Popen[str]
    banner: str

    def client(self, token: str | None = None) -> httpx.Client:
        token = self.token if token is None else token
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.Client(base_url=self.url, headers=headers, timeout=60)

    def stop(self) -> str:
        """Stop the server; returns everything it printed."""
        self.proc.terminate()
        try:
            out, err = self.proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            out, err = self.proc.communicate()
        return self.banner + out + err


def start_server(home: Path, *args: str, env: dict[str, str] | None = None) -> Served:
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "cli.py"), "serve", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "UNICUM_HOME": str(home), **(env or {})},
    )
    assert proc.stdout is not None
    banner = ""
    for line in iter(proc.stdout.readline, ""):  # the whole banner (communicate() later
        banner += line  # reads the pipe itself, past what readline buffered)
        if line.startswith("Ctrl-C"):
            break
    match = re.search(r"on (http://\S+)", banner)
    if match is None:
        proc.kill()
        raise AssertionError(f"no address in {banner!r}: {proc.communicate()[1]}")
    url = match.group(1)
    token_file = home / "serve.token"
    token = token_file.read_text().strip() if token_file.is_file() else ""
    deadline = time.monotonic() + 120  # a hang-guard: a loaded machine starts it slowly
    while True:
        try:
            if httpx.get(f"{url}/health", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            proc.kill()
            raise AssertionError(f"server never answered: {proc.communicate()[1]}")
        time.sleep(0.05)
    return Served(url, token, home, proc, banner)
