"""What the agent does, on the screen: streamed Markdown, dimmed reasoning, tool lines, diffs."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from core.agent import AgentHooks, TaskResult
from my_agent.messages import ModelResponse, ReasoningDelta, StreamEvent, TextDelta, ToolCall
from tools.base import ToolOutput
from ui.views.diff import DIFF_TOOLS, render_diff, snapshot
from ui.views.tool_lines import failure_tail, summary
from ui.words import Strings

if TYPE_CHECKING:
    from rich.console import Console

REFRESH = 0.08  # seconds between repaints of the streaming block


def split_stable(text: str) -> tuple[str, str]:
    """(finished Markdown blocks, the block still streaming): split at the last blank line
    outside a code fence."""
    cut, fence, pos = -1, False, 0
    for line in text.splitlines(keepends=True):
        if line.lstrip().startswith(("```", "~~~")):
            fence = not fence
        pos += len(line)
        if not fence and not line.strip() and pos < len(text):
            cut = pos
    return (text[:cut], text[cut:]) if cut > 0 else ("", text)


def tail_view(block: str, height: int) -> str:
    """The last `height` lines of a growing block (re-opening its code fence), so a block taller
    than the screen shows its newest lines while it streams; the full block prints at the end."""
    lines = block.splitlines()
    if len(lines) <= max(4, height):
        return block
    opener = next((ln for ln in reversed(lines) if ln.lstrip().startswith(("```", "~~~"))), None)
    tail = lines[-max(3, height - 1) :]
    fenced = opener is not None and sum(ln.lstrip().startswith(("```", "~~~")) for ln in lines) % 2
    return "\n".join(([opener] if fenced else []) + tail)


class MarkdownStream:
    """Prints finished blocks for good and repaints only the block that is still growing."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.buffer = ""
        self.live = None
        self._painted = 0.0

    def feed(self, text: str) -> None:
        from rich.markdown import Markdown

        self.buffer += text
        done, self.buffer = split_stable(self.buffer)
        if done.strip():
            self._stop_live()
            self.console.print(Markdown(done))
        if time.monotonic() - self._painted >= REFRESH and self.buffer.strip():
            self._paint(Markdown(tail_view(self.buffer, self.console.size.height - 4)))

    def _paint(self, renderable) -> None:
        from rich.live import Live

        if self.live is None:
            self.live = Live(
                console=getattr(self.console, "real", self.console),
                auto_refresh=False,
                transient=True,
                vertical_overflow="crop",
            )
            self.live.start()
        self.live.update(renderable, refresh=True)
        self._painted = time.monotonic()

    def _stop_live(self) -> None:
        if self.live is not None:
            self.live.stop()
            self.live = None

    def finish(self) -> None:
        from rich.markdown import Markdown

        self._stop_live()
        if self.buffer.strip():
            self.console.print(Markdown(self.buffer))
        self.buffer = ""


class Waiting:
    """The spinner's words while the model has not answered yet: they tick every refresh
    (seconds waited, tokens of the task so far), so a slow local model processing a long
    prompt visibly works, and says how to stop it."""

    def __init__(self, strings: Strings, tokens: int, started: float | None = None) -> None:
        self.s, self.tokens = strings, tokens
        self.started = time.monotonic() if started is None else started

    def text(self) -> str:
        return self.s.t(
            "thinking… {secs}s · {tokens} tokens so far · Ctrl-C to stop",
            secs=int(time.monotonic() - self.started),
            tokens=f"{self.tokens:,}",
        )

    def __rich__(self):
        from rich.text import Text

        return Text(self.text())


class ChildTally:
    """A sub-agent's work as the screen counts it: tool calls, requests, tokens."""

    def __init__(self) -> None:
        self.calls = self.requests = self.tokens = 0

    def add(self, response: ModelResponse) -> None:
        self.requests += 1
        self.tokens += response.usage.total_input + response.usage.output

    def words(self, s: Strings) -> str:
        calls = s.tn("{n} tool call", "{n} tool calls", self.calls, n=self.calls)
        tokens = s.tn("{n} token", "{n} tokens", self.tokens, n=f"{self.tokens:,}")
        return f"{calls} · {tokens}"


class Renderer(AgentHooks):
    """Screen hooks for the REPL. Only one live display runs at a time (spinner or stream)."""

    def __init__(
        self,
        console: Console,
        strings: Strings,
        workspace: Callable[[], Path],
        key_arg: Callable[[str], str] = lambda name: "",
    ) -> None:
        self.console = console
        self.s = strings
        self.workspace = workspace
        self.key_arg = key_arg  # tool name → the argument its one line shows
        self.markdown = MarkdownStream(console)
        self.status = None
        self.reasoning = False
        self._before: dict[str, tuple[Path, str | None]] = {}
        self._running = ""  # the call running now (an edit's approval may show its diff)
        self._retry_shown = 0  # the attempt whose line is on the screen (the countdown ticks)
        self.waited: Callable[[], float] = lambda: 0.0  # seconds spent answering questions
        self._wait_mark: dict[str, float] = {}
        self.task_tokens = 0  # input and output of this task's answered requests
        self.child = ChildTally()  # the running sub-agent's calls and tokens
        self.children = ChildTally()  # every sub-agent of the session (/usage)

    # --- live displays -----------------------------------------------------------------------
    def spin(self, message: str | Waiting) -> None:
        """Show a spinner with `message` (plain text: brackets in a command are not markup;
        a `Waiting` re-renders itself as the spinner refreshes)."""
        from rich.text import Text

        shown = Text(message) if isinstance(message, str) else message
        self.markdown.finish()
        if self.status is None:
            self.status = self.console.status(shown, spinner="dots")
            self.status.start()
        else:
            self.status.update(shown)

    def stop_live(self) -> None:
        """Stop every live display (before a question, an error or the next prompt)."""
        if self.status is not None:
            self.status.stop()
            self.status = None
        self.markdown.finish()
        self._end_reasoning()

    def _end_reasoning(self) -> None:
        if self.reasoning:
            self.console.print()
            self.reasoning = False

    # --- agent hooks -------------------------------------------------------------------------
    def before_request(self, turn: int) -> None:
        self._retry_shown = 0
        self.spin(Waiting(self.s, self.task_tokens))

    def on_stream(self, event: StreamEvent) -> None:
        from rich.text import Text

        if self.status is not None:
            self.status.stop()
            self.status = None
        if isinstance(event, ReasoningDelta):
            if not self.reasoning:
                self.markdown.finish()
                self.reasoning = True
            self.console.print(Text(event.text, style="dim italic"), end="")
        elif isinstance(event, TextDelta):
            self._end_reasoning()
            self.markdown.feed(event.text)
        else:
            self._end_reasoning()
            self.spin(self.s.t("preparing {name}…", name=event.name))

    def on_retry(self, attempt: int, wait: float, reason: str) -> None:
        """One line per attempt; the seconds left tick in the spinner (`countdown`)."""
        from rich.text import Text

        if attempt == self._retry_shown:
            return
        self._retry_shown = attempt
        self.stop_live()
        self.console.print(
            Text(
                self.s.t(
                    "{reason}: retry {attempt} in {wait}s",
                    reason=self.s.reason(reason),
                    attempt=attempt,
                    wait=f"{wait:.1f}",
                ),
                style="yellow",
            )
        )

    def countdown(self, seconds: float) -> None:
        """The model client's sleep between retries, shown as a countdown."""
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0:
            self.spin(self.s.t("retrying in {wait}s…", wait=math.ceil(left)))
            time.sleep(min(0.25, left))
        self.stop_live()

    def on_response(self, response: ModelResponse) -> None:
        self.stop_live()
        self.task_tokens += response.usage.total_input + response.usage.output

    def on_tool_start(self, call: ToolCall) -> None:
        self.stop_live()
        self._wait_mark[call.id] = self.waited()
        self._running = call.id
        if call.name == "task":
            self._task_started(call)
        if call.name in DIFF_TOOLS:
            self._before[call.id] = snapshot(self.workspace(), call.arguments)
        self.spin(f"{call.name} {self.summary(call)}")

    def diff_shown(self) -> None:
        """The running edit's diff was shown with its approval question: not again after it."""
        self._before.pop(self._running, None)

    def summary(self, call: ToolCall) -> str:
        return summary(call.name, call.arguments, self.s, self.key_arg(call.name))

    def on_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        self.stop_live()
        seconds -= self.waited() - self._wait_mark.pop(call.id, self.waited())
        extra = self.child.words(self.s) if call.name == "task" else ""
        self._tool_line("  ", call, output.is_error, seconds, extra)
        if output.is_error:
            self._failure(output.content)
        before = self._before.pop(call.id, None)
        if before and not output.is_error:
            render_diff(self.console, before, self.s, self.workspace())
        if call.name == "todo" and not output.is_error:
            from ui.views.todos import render_todos

            render_todos(self.console, output.data.get("todos", []), self.s)

    def _tool_line(
        self, indent: str, call: ToolCall, failed: bool, seconds: float, extra: str = ""
    ) -> None:
        from rich.text import Text

        line = Text(indent)
        line.append("✗ " if failed else "✓ ", style="red" if failed else "green")
        line.append(call.name, style="bold")
        line.append(f" {self.summary(call)}")
        line.append(f"  {seconds:.1f}s" + (f" · {extra}" if extra else ""), style="dim")
        self.console.print(line)

    # --- a sub-agent's calls, indented under its parent's `task` line -------------------------
    def _task_started(self, call: ToolCall) -> None:
        from rich.text import Text

        self.child = ChildTally()
        line = Text("  ▸ ", style="cyan")
        line.append("task", style="bold")
        self.console.print(line + Text(f" {self.summary(call)}"))

    def on_child_tool_start(self, call: ToolCall) -> None:
        self.stop_live()
        self.spin(f"    {call.name} {self.summary(call)}")

    def on_child_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        self.stop_live()
        self.child.calls += 1
        self._tool_line("    ", call, output.is_error, seconds)
        if output.is_error:
            self._failure(output.content, indent="      ")
        self.spin(self.s.t("the sub-agent is working…"))

    def on_child_response(self, response: ModelResponse) -> None:
        for tally in (self.child, self.children):
            tally.add(response)

    def on_tool_blocked(self, call: ToolCall, reason: str) -> None:
        """A hook or a rule stopped the call: its line with ✗, and why, where it happened."""
        from rich.text import Text

        from ui.words import relative_paths

        self.stop_live()
        line = Text("  ")
        line.append("✗ ", style="red")
        line.append(call.name, style="bold")
        line.append(f" {self.summary(call)}")
        self.console.print(line)
        why = self.s.line(relative_paths(reason, self.workspace()))
        self.console.print(Text(f"    {why}", style="red", no_wrap=True, overflow="ellipsis"))

    def _failure(self, content: str, indent: str = "    ") -> None:
        """A failed call's last lines (its exit code and tail), each cut at the screen's edge."""
        from rich.text import Text

        from ui.words import relative_paths

        if content.startswith("refused by the user: "):  # the question is just above
            lines = [self.s.t("refused: the model was told not to retry it")]
        else:
            lines = failure_tail(relative_paths(content, self.workspace()), self.s)
        for line in lines:
            self.console.print(
                Text(indent + self.s.line(line), style="red dim", no_wrap=True, overflow="ellipsis")
            )

    def on_budget_warning(self, warning) -> None:
        """A budget threshold crossed (the ledger's hook; `warning.text` is the line)."""
        from rich.text import Text

        self.stop_live()
        self.console.print(
            Text(self.s.t("budget: {text}", text=self.s.line(warning.text)), style="yellow")
        )

    def on_task_end(self, result: TaskResult) -> None:
        self.stop_live()
        self.task_tokens = 0
