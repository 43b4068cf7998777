"""A time limit for the regular expressions search_files runs in this process: the `regex`
module's `timeout`, shared by every call of one search (Python's `re` cannot be stopped, so a
catastrophic pattern such as `(a+)+$` would hang the session)."""

from __future__ import annotations

import re
import subprocess
import time
from pathlib import Path
from typing import Any

SEARCH_SECONDS = 8.0  # one search, every engine together


class SearchTimeout(Exception):
    """The search hit its time limit."""


class Timed:
    """A pattern whose matching calls share one deadline; SearchTimeout when it passes."""

    def __init__(self, pattern: Any, deadline: float) -> None:
        self.inner, self.deadline = pattern, deadline
        self.pattern, self.flags, self.groups = pattern.pattern, pattern.flags, pattern.groups

    def _left(self) -> float:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise SearchTimeout
        return left

    def search(self, text: Any, *args: Any) -> Any:
        try:
            return self.inner.search(text, *args, timeout=self._left())
        except TimeoutError:
            raise SearchTimeout from None

    def findall(self, text: Any) -> list:
        try:
            return self.inner.findall(text, timeout=self._left())
        except TimeoutError:
            raise SearchTimeout from None

    def finditer(self, text: Any) -> list:
        try:
            return list(self.inner.finditer(text, timeout=self._left()))
        except TimeoutError:
            raise SearchTimeout from None


def timed(pattern: re.Pattern | None, deadline: float) -> Any:
    """`pattern` compiled by the `regex` module with the deadline, or None for None. A
    pattern `regex` cannot compile keeps Python's `re` (it still stops at the next check)."""
    if pattern is None:
        return None
    import regex

    flags = pattern.flags & (re.IGNORECASE | re.MULTILINE | re.DOTALL | re.VERBOSE | re.ASCII)
    try:
        return Timed(regex.compile(pattern.pattern, flags), deadline)
    except (regex.error, ValueError, TypeError):
        return pattern


def deadline(seconds: float = SEARCH_SECONDS) -> float:
    return time.monotonic() + seconds


def run_limited(args: list[str], cwd: Path, until: float) -> subprocess.CompletedProcess:
    """Run rg (its output captured) until the deadline; SearchTimeout when it passes."""
    try:
        return subprocess.run(
            args,
            cwd=cwd,
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=max(0.1, until - time.monotonic()),
        )
    except subprocess.TimeoutExpired:
        raise SearchTimeout from None
