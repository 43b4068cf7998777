"""Drives the real REPL in a pseudo-terminal, as a person would, and reads the screen as text."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pexpect

from tests.conftest import ROOT

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
        timeout: float = 20,
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

    def wait_exit(self, timeout: float = 10) -> int:
        deadline = time.monotonic() + timeout
        while self._read() and time.monotonic() < deadline:
            pass
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else -1

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)
