"""Drives the real REPL in a pseudo-terminal, as a person would, and reads the screen as text."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import pexpect

from tests.conftest import ROOT, provider_env

ANSI = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[()][0-9A-Za-z]"
    r"|\x1b[=>78]|[\r\x07]"
)
PROMPT = "unicum>"


class Repl:
    def __init__(
        self,
        *args: str,
        env: dict[str, str],
        cwd: Path | None = None,
        timeout: float = 60,  # a hang-guard for each expect: a loaded machine is slow
        columns: int = 160,
        cpr: bool = False,
    ) -> None:
        full_env = {
            **os.environ,
            **env,
            "PROMPT_TOOLKIT_NO_CPR": "1",
            "TERM": "xterm-256color",
            "COLUMNS": str(columns),
            "LINES": "50",
        }
        self.cpr = cpr  # answer cursor-position requests, as a real terminal does
        if cpr:
            del full_env["PROMPT_TOOLKIT_NO_CPR"]
        self.child = pexpect.spawn(
            sys.executable,
            [str(ROOT / "cli.py"), *args],
            env=full_env,
            cwd=str(cwd or Path.cwd()),
            dimensions=(50, columns),
            encoding="utf-8",
            codec_errors="replace",
            timeout=timeout,
        )
        self.timeout = timeout
        self.raw = ""
        self.pos = 0  # where the next expect starts looking in the plain text

    @property
    def text(self) -> str:
        return ANSI.sub("", self.raw)

    def _read(self) -> bool:
        try:
            chunk = self.child.read_nonblocking(65536, timeout=0.05)
            self.raw += chunk
            if self.cpr:  # the cursor is on row 1 of 50: room below for a toolbar
                self.child.send("\x1b[1;1R" * chunk.count("\x1b[6n"))
            return True
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False

    def expect(self, pattern: str, timeout: float | None = None) -> re.Match[str]:
        """Wait until `pattern` (a regex) shows up after the last match; return the match."""
        deadline = time.monotonic() + (timeout or self.timeout)
        regex = re.compile(pattern)
        while True:
            found = regex.search(self.text, self.pos)
            if found:
                self.pos = found.end()
                return found
            alive = self._read()
            if time.monotonic() > deadline or (not alive and not regex.search(self.text, self.pos)):
                raise AssertionError(
                    f"{pattern!r} not seen; screen after last match:\n"
                    f"{self.text[self.pos :][-3000:]}"
                )

    def press(self, key: str, drawn: str, timeout: float | None = None) -> None:
        """Send `key` and wait until the raw output after it matches `drawn` (a regex): the
        REPL has handled the key (an Esc is held until nothing follows it for a while)."""
        mark = len(self.raw)
        self.child.send(key)
        deadline = time.monotonic() + (timeout or self.timeout)
        regex = re.compile(drawn)
        while not regex.search(self.raw, mark):
            if not self._read() or time.monotonic() > deadline:
                raise AssertionError(f"{key!r} drew no {drawn!r}: {self.raw[mark:][-500:]!r}")

    def prompt(self) -> None:
        self.expect(re.escape(PROMPT))

    def send(self, line: str) -> None:
        self.child.send(line + "\r")

    def command(self, line: str, expect: str) -> re.Match[str]:
        """Send a line and wait for `expect`, then for the next prompt."""
        self.send(line)
        found = self.expect(expect)
        self.prompt()
        return found

    def wait_exit(self, timeout: float = 60) -> int:
        deadline = time.monotonic() + timeout
        while self._read() and time.monotonic() < deadline:
            pass
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else -1

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def start_repl(
    llm: Any, workspace: Path, *extra: str, provider: str = "anthropic", **kw: Any
) -> Repl:
    """The REPL in `workspace` talking to the scripted server as `provider`, at its prompt;
    `env` joins the provider's variables, the other keywords go to `Repl`."""
    env = {**provider_env(llm, provider), **kw.pop("env", {})}
    repl = Repl("--dir", str(workspace), "--provider", provider, *extra, env=env, **kw)
    repl.prompt()
    return repl


def wait_for_stream(llm: Any, requests: int, events: int = 8, seconds: float = 120) -> None:
    """Until the `requests`-th request is being answered and `events` of its events went out
    (`seconds`: a hang-guard); a Ctrl-C sent then lands mid-stream, whatever the speed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if len(llm.requests) >= requests and llm.requests[requests - 1].sent >= events:
            return
        time.sleep(0.02)
    raise AssertionError(f"request {requests} never streamed {events} events")


def user_texts(body: dict) -> list[str]:
    """The user's typed texts in a request, in order (either wire)."""
    texts = []
    for msg in body["messages"]:
        if msg["role"] != "user":
            continue
        content = msg["content"]
        if isinstance(content, str):
            texts.append(content)
        else:
            texts += [b["text"] for b in content if b.get("type") == "text"]
    return texts
