"""`--time`: timings of each request and task, on the screen (nothing goes into the project).

Per request: time to first token, total, context building; the first request's wait for the
SDK (its import) on a line of its own, outside model time. Per task: model + tools + Unicum,
Unicum's share split into the start (code-map wait, memory, start hooks), the SDK import and
the end (memory saved, Stop hooks, transcript)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from core.agent import AgentHooks, TaskResult
from my_agent.messages import ModelResponse, ToolCall
from tools.base import ToolOutput
from ui.terminal import styled
from ui.words import Strings


class TimingHooks(AgentHooks):
    """Per request: time to first token, total and context-building time; per task: a split."""

    def __init__(
        self,
        strings: Strings,
        context_seconds: Callable[[], float],
        stream: TextIO | None = None,
        waited: Callable[[], float] = lambda: 0.0,
    ) -> None:
        self.stream = stream  # None: stdout (the REPL); `-p` passes stderr
        self.s = strings
        self.context_seconds = context_seconds  # the agent's last context-building time
        self.requests = 0
        self.context_total = 0.0
        self.model_total = 0.0
        self._in_flight: float | None = None  # when the unanswered request started
        self._tool_started: float | None = None  # when the unfinished tool call started
        self.tools, self.tool_total = 0, 0.0
        self.waited = waited  # seconds the prompter has waited for answers, so far
        self.wait_total, self._wait_mark = 0.0, 0.0
        self.client_total = 0.0  # waited for the HTTP client (the session's first request)

    def on_task_start(self, task: str) -> None:
        self.requests, self.context_total, self.model_total = 0, 0.0, 0.0
        self.tools, self.tool_total, self.wait_total = 0, 0.0, 0.0
        self._tool_started = None
        self.client_total = 0.0

    def on_tool_start(self, call: ToolCall) -> None:
        self._tool_started = time.monotonic()
        self._wait_mark = self.waited()

    def on_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        self._tool_done(seconds)

    def _tool_done(self, seconds: float) -> None:
        """A tool's time without the time its approval question waited for the person."""
        wait = self.waited() - self._wait_mark
        self.wait_total += wait
        seconds = max(0.0, seconds - wait)
        self._tool_started = None
        self.tools, self.tool_total = self.tools + 1, self.tool_total + seconds

    def before_request(self, turn: int) -> None:
        self.requests += 1
        self._in_flight = time.monotonic()

    def on_response(self, response: ModelResponse) -> None:
        if response.client_seconds:
            self.client_total += response.client_seconds
            self._say(
                self.s.t(
                    "HTTP client set up in {total}s (the first request waited for it; "
                    "not model time)",
                    total=f"{response.client_seconds:.2f}",
                )
            )
        if response.purpose == "summary":  # a compaction request, not one of the task's turns
            self.model_total += response.duration  # model time, though not a turn
            self._say(self.s.t("summary request: total {total}s", total=f"{response.duration:.2f}"))
            return
        self._in_flight = None
        self.model_total += response.duration
        ctx = self.context_seconds()
        self.context_total += ctx
        ttft = "—" if response.ttft is None else f"{response.ttft:.2f}s"
        self._say(
            self.s.t(
                "request {n}: first token {ttft}, total {total}s, context built in {ctx} ms",
                n=self.requests,
                ttft=ttft,
                total=f"{response.duration:.2f}",
                ctx=f"{ctx * 1000:.1f}",
            )
        )

    def on_task_end(self, result: TaskResult) -> None:
        if self._in_flight is not None:  # interrupted while the model was answering
            self.model_total += time.monotonic() - self._in_flight - self.context_seconds()
            self._in_flight = None
        if self._tool_started is not None:  # interrupted while a tool ran
            self._tool_done(time.monotonic() - self._tool_started)

    def on_task_timed(self, result: TaskResult) -> None:
        """The summary, once the end hooks ran (their time is in the total)."""
        tools, tool_s = self.tools, self.tool_total
        own = max(0.0, result.total_seconds - self.model_total - tool_s - self.wait_total)
        waiting = (
            self.s.t(" + waiting for you {wait}s", wait=f"{self.wait_total:.2f}")
            if self.wait_total >= 0.005
            else ""
        )
        self._say(
            self.s.t(
                "{requests} · {tools} · {total}s = model {model}s + tools {tool_s}s + "
                "Unicum {own}s (start {setup}s{http}, end {end}s, context {ctx} ms)",
                requests=self.s.tn("{n} request", "{n} requests", self.requests, n=self.requests),
                tools=self.s.tn("{n} tool call", "{n} tool calls", tools, n=tools),
                total=f"{result.total_seconds:.2f}",
                model=f"{self.model_total:.2f}",
                tool_s=f"{tool_s:.2f}",
                own=f"{own:.2f}",
                setup=f"{result.setup_seconds:.2f}",
                http=self.s.t(", HTTP client {total}s", total=f"{self.client_total:.2f}")
                if self.client_total
                else "",
                end=f"{result.end_seconds:.2f}",
                ctx=f"{self.context_total * 1000:.1f}",
            )
            + waiting
        )
        self.on_task_start("")  # a resumed task (budget raised) reports its own part

    def _say(self, line: str) -> None:
        stream = self.stream or sys.stdout
        print(styled("  ⏱ " + line, "dim cyan", stream), file=stream, flush=True)
