"""What each request holds. The default policy sends the whole history; see compaction policies."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from my_agent.facts import Fact
from my_agent.messages import Message, ToolCall

Summarizer = Callable[[list[Message]], str]


@dataclass
class Calibration:
    """Provider-counted input against the local estimate of the request's messages over the
    latest requests: input ≈ fixed + slope × estimate. `fixed` is what the provider counts for
    the system prompt and tool schemas (which the local estimate counts poorly: JSON)."""

    points: list[tuple[int, int]] = field(default_factory=list)  # (estimate, reported)
    keep: int = 6

    def observe(self, estimate: int, reported: int) -> None:
        if reported > 0:
            self.points = [*self.points, (estimate, reported)][-self.keep :]

    @property
    def fixed(self) -> int:
        """0 until two requests of different sizes were seen."""
        n = len(self.points)
        mean_e = sum(e for e, _ in self.points) / max(1, n)
        mean_r = sum(r for _, r in self.points) / max(1, n)
        spread = sum((e - mean_e) ** 2 for e, _ in self.points)
        if n < 2 or not spread:
            return 0
        slope = sum((e - mean_e) * (r - mean_r) for e, r in self.points) / spread
        return max(0, int(mean_r - max(0.5, min(2.0, slope)) * mean_e))


@dataclass
class SavedOutput:
    """A tool result as the history holds it, in the shape fact extraction reads of a tool's
    output (`content`, `is_error`, `data`); a live output carries more `data`."""

    content: str
    is_error: bool = False
    data: dict = field(default_factory=dict)


class ContextPolicy(Protocol):
    ratio: float  # provider tokens per locally estimated token
    compactions: int
    calibration: Calibration  # what the provider counts for the fixed prompt, once seen

    def messages_for_request(self, history: list[Message]) -> list[Message]: ...

    def on_tool_result(self, call: ToolCall, output: object) -> Fact | None:
        """Record one finished call; may return its fact (with the archive id) for the agent."""
        ...

    def view(self, history: list[Message]) -> list[Message]:
        """What the next request would hold, without compacting anything."""
        ...

    def compact(self, history: list[Message], summarize: Summarizer) -> str:
        """Summarize now (`/compact`); the summary, or "" when there is nothing to compact."""
        ...

    def on_overflow(self, history: list[Message]) -> bool:
        """The server said the last request did not fit: compact now; False when it cannot."""
        ...

    def observe_usage(self, reported_input: int) -> None:
        """The provider's input count for the last request: calibrates the local estimate."""
        ...

    @property
    def phase(self) -> str: ...

    @property
    def window_tokens(self) -> int: ...


class FullHistory:
    """Naive policy: every message, unchanged."""

    ratio = 1.0
    compactions = 0
    phase = ""
    window_tokens = 0

    def __init__(self) -> None:
        self.calibration = Calibration()

    def messages_for_request(self, history: list[Message]) -> list[Message]:
        return list(history)

    def on_tool_result(self, call: ToolCall, output: object) -> None:
        return None

    def view(self, history: list[Message]) -> list[Message]:
        return list(history)

    def compact(self, history: list[Message], summarize: Summarizer) -> str:
        return ""

    def on_overflow(self, history: list[Message]) -> bool:
        return False

    def observe_usage(self, reported_input: int) -> None:
        return None  # no estimate of its own to calibrate
