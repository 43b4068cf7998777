"""Exceptions that leave a step, each carrying a one-line message for the user."""


class UnicumError(Exception):
    """Base: its str() is the one line shown to the user."""


class ModelError(UnicumError):
    """The model request failed for good (after retries, or not retryable)."""

    def __init__(self, message: str, status: int | None = None, retryable: bool = False):
        super().__init__(message)
        self.status = status
        self.retryable = retryable


class Interrupted(UnicumError):
    """The user pressed Ctrl-C; the session was left valid."""


class BudgetExceeded(UnicumError):
    """A token or cost budget would be exceeded by the next request."""
