"""Exceptions that leave a step, each carrying a one-line message for the user."""

from __future__ import annotations

from collections.abc import Callable


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
