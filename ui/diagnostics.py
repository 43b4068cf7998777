"""`--time`: timings of each request and task, on the screen (nothing goes into the project)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from core.events import AgentHooks, TaskResult
from core.messages import ModelResponse
from ui.i18n import Strings
from ui.screen import styled


class TimingHooks(AgentHooks):
    """Per request: time to first token, total and context-building time; per task: a split."""

    def __init__(self, strings: Strings, context_seconds: Callable[[], float],
                 stream: TextIO | None = None) -> None:
        self.stream = stream  # None: stdout (the REPL); `-p` passes stderr
        self.s = strings
        self.context_seconds = context_seconds  # the agent's last context-building time
        self.requests = 0
        self.context_total = 0.0
        self.model_total = 0.0
        self._in_flight: float | None = None  # when the unanswered request started

    def on_task_start(self, task: str) -> None:
        self.requests, self.context_total, self.model_total = 0, 0.0, 0.0

    def before_request(self, turn: int) -> None:
        self.requests += 1
        self._in_flight = time.monotonic()

    def on_response(self, response: ModelResponse) -> None:
        self._in_flight = None
        self.model_total += response.duration
        ctx = self.context_seconds()
        self.context_total += ctx
        ttft = "—" if response.ttft is None else f"{response.ttft:.2f}s"
        self._say(self.s.t("time_request", n=self.requests, ttft=ttft,
                           total=f"{response.duration:.2f}", ctx=f"{ctx * 1000:.1f}"))

    def on_task_end(self, result: TaskResult) -> None:
        if self._in_flight is not None:  # interrupted while the model was answering
            self.model_total += time.monotonic() - self._in_flight - self.context_seconds()
            self._in_flight = None
        own = max(0.0, result.total_seconds - self.model_total - result.tool_seconds)
        self._say(self.s.t("time_summary", requests=self.requests, tools=result.tool_calls,
                           rs="" if self.requests == 1 else "s",
                           ts="" if result.tool_calls == 1 else "s",
                           total=f"{result.total_seconds:.2f}", model=f"{self.model_total:.2f}",
                           tool_s=f"{result.tool_seconds:.2f}", own=f"{own:.2f}",
                           ctx=f"{self.context_total * 1000:.1f}"))

    def _say(self, line: str) -> None:
        stream = self.stream or sys.stdout
        print(styled("  ⏱ " + line, "dim cyan", stream), file=stream, flush=True)
