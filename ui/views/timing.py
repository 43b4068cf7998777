"""`--time`: timings of each request and task, on the screen (nothing goes into the project).

Every wait is named: with `-p`, the process's start-up before its task (imports from cli.py's first line,
the session opened); per request, time to first token, total and context building, and on
lines of their own, outside model time, what the first request waited for: the HTTP client
(its import and set-up), MCP servers still starting (named), plugins loading. Per task: model
+ tools + Unicum, Unicum's share split into the start (code-map wait, memory, start hooks),
those waits and the end (memory saved, Stop hooks, transcript)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from core.agent import AgentHooks, TaskResult
from my_agent.messages import ModelResponse, ToolCall
from tools.base import ToolOutput
from ui.terminal import styled
from ui.words import N_, Strings

MIN_SHOWN = 0.01  # seconds: a shorter wait is not worth a line
WAIT_PARTS = {  # the summary's words for each wait (start's own time is without them)
    "codemap": N_(", code map {total}s"),
    "plugins": N_(", plugins {total}s"),
    "mcp": N_(", MCP servers {total}s"),
    "http": N_(", HTTP client {total}s"),
}


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
        # seconds waited, by what (`WAIT_PARTS`): the code map, plugins, MCP servers, the
        # HTTP client (the session's first request)
        self.waits: dict[str, float] = {}

    def on_task_start(self, task: str) -> None:
        self.requests, self.context_total, self.model_total = 0, 0.0, 0.0
        self.tools, self.tool_total, self.wait_total = 0, 0.0, 0.0
        self._tool_started = None
        self.waits = {}

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

    def start_up(self, imports: float, session: float) -> None:
        """`-p`: the process's time before its first task."""
        self._say(
            self.s.t(
                "started in {total}s before the task: imports {imports}s, "
                "session opened in {session}s",
                total=f"{imports + session:.2f}",
                imports=f"{imports:.2f}",
                session=f"{session:.2f}",
            )
        )

    def on_wait(self, what: str, seconds: float, names: tuple[str, ...] = ()) -> None:
        if seconds < MIN_SHOWN:
            return
        self.waits[what] = self.waits.get(what, 0.0) + seconds
        total = f"{seconds:.2f}"
        if what == "mcp":
            line = self.s.t(
                "waited {total}s for MCP servers still starting: {names} (their tools join "
                "at the first request; not model time)",
                total=total,
                names=", ".join(names),
            )
        elif what == "codemap":
            line = self.s.t(
                "waited {total}s for the code map (its overview joins the prompt)", total=total
            )
        else:
            line = self.s.t("loaded plugins in {total}s (before the first request)", total=total)
        self._say(line)

    def before_request(self, turn: int) -> None:
        self.requests += 1
        self._in_flight = time.monotonic()

    def on_response(self, response: ModelResponse) -> None:
        if response.client_seconds:
            self.waits["http"] = self.waits.get("http", 0.0) + response.client_seconds
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
                "Unicum {own}s (start {setup}s{waits}, end {end}s, context {ctx} ms)",
                requests=self.s.tn("{n} request", "{n} requests", self.requests, n=self.requests),
                tools=self.s.tn("{n} tool call", "{n} tool calls", tools, n=tools),
                total=f"{result.total_seconds:.2f}",
                model=f"{self.model_total:.2f}",
                tool_s=f"{tool_s:.2f}",
                own=f"{own:.2f}",
                setup=f"{max(0.0, result.setup_seconds - self.waits.get('codemap', 0.0)):.2f}",
                waits=self._waits(),
                end=f"{result.end_seconds:.2f}",
                ctx=f"{self.context_total * 1000:.1f}",
            )
            + waiting
        )
        self.on_task_start("")  # a resumed task (budget raised) reports its own part

    def _waits(self) -> str:
        """The summary's part for the waits, in the order they came: ", code map 0.40s,
        MCP servers 1.92s, HTTP client 0.11s"."""
        return "".join(
            self.s.t(WAIT_PARTS[what], total=f"{seconds:.2f}")
            for what, seconds in self.waits.items()
            if what in WAIT_PARTS
        )

    def _say(self, line: str) -> None:
        stream = self.stream or sys.stdout
        print(styled("  ⏱ " + line, "dim cyan", stream), file=stream, flush=True)
