"""Exceptions that leave a step, each carrying a one-line message for the user."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path


class UnicumError(Exception):
    """Base: its str() is the one line shown to the user."""


class ModelError(UnicumError):
    """The model request failed for good (after retries, or not retryable)."""

    def __init__(
        self,
        message: str,
        status: int | None = None,
        retryable: bool = False,
        too_long: bool = False,
    ):
        super().__init__(message)
        self.status = status
        self.retryable = retryable
        self.too_long = too_long  # the request did not fit the model's context window


class Interrupted(UnicumError):
    """The user pressed Ctrl-C; the session was left valid."""


class ToolInterrupted(KeyboardInterrupt):
    """Ctrl-C inside a tool that has something to say for its call (a sub-agent's partial
    report): `result` becomes that call's tool result; the task still ends as interrupted."""

    def __init__(self, result: str, line: str = "") -> None:
        super().__init__(result)
        self.result = result
        self.line = line  # the user's stop line, when it should say more than the default


class BudgetExceeded(UnicumError):
    """A token or cost budget would be exceeded by the next request.

    Carries what was exceeded (`scope`: task/session/day, `metric`: usd/tokens, `limit`,
    `spent`) and `extend(amount)`, which raises that limit so the task can be resumed.
    """

    def __init__(
        self,
        message: str,
        scope: str = "",
        metric: str = "",
        limit: float = 0.0,
        spent: float = 0.0,
        extender: Callable[[float], None] | None = None,
    ) -> None:
        super().__init__(message)
        self.scope, self.metric, self.limit, self.spent = scope, metric, limit, spent
        self._extender = extender

    def extend(self, amount: float) -> None:
        if self._extender is None:
            raise ValueError("this budget cannot be extended")
        self._extender(amount)


class ConfigError(Exception):
    """A configuration problem the user must fix; its message is one actionable line."""


def short_path(path: object, root: Path | None = None, width: int = 60) -> str:
    """A path for an error line: relative to `root` when inside it, its middle cut when long."""
    text = os.fsdecode(path) if isinstance(path, str | bytes | os.PathLike) else str(path)
    if root is not None:
        try:
            text = str(Path(text).relative_to(root.resolve()))
        except ValueError:
            pass
    if len(text) <= width:
        return text
    half = (width - 1) // 2
    return f"{text[:half]}…{text[-half:]}"


def os_error_line(exc: OSError, root: Path | None = None) -> str:
    """One line for an OSError, as a person reads it: `path: file name too long`, never
    `[Errno 36] File name too long: '/very/long/…'`."""
    reason = (exc.strerror or str(exc) or type(exc).__name__).strip().splitlines()[0]
    reason = reason[:1].lower() + reason[1:]
    paths = [p for p in (exc.filename, exc.filename2) if p is not None]
    where = " → ".join(short_path(p, root) for p in paths)
    return f"{where}: {reason}" if where else reason
