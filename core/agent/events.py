"""Hooks through which the agent reports what it does. The UI, ledger and memory subclass them."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from my_agent.facts import Fact
from my_agent.messages import ModelResponse, StreamEvent, ToolCall, Usage

if TYPE_CHECKING:
    from core.ledger import BudgetWarning
    from tools.base import ToolOutput


@dataclass
class TaskResult:
    text: str
    turns: int = 0
    usage: Usage = field(default_factory=Usage)
    stop: str = "done"  # done | max_turns | repeated | budget | interrupted | error
    tool_calls: int = 0
    model_seconds: float = 0.0
    tool_seconds: float = 0.0
    total_seconds: float = 0.0  # from the task's start, its setup included
    setup_seconds: float = 0.0  # before the first request: prompt (code map wait), start hooks
    end_seconds: float = 0.0  # end hooks: Stop hooks, memory saved, transcript (in the total)


@dataclass(frozen=True)
class ToolVerdict:
    """A hook's or a permission rule's say on a tool call before it runs: "block" (the model
    gets `reason` back and nothing runs), "ask" (the user is asked first, even where nothing
    would ask) or "approve" (it runs without asking). `arguments`: the call's new arguments (a
    hook's `updatedInput`); `source`: who said so, for the blocked call's line."""

    decision: str  # block | ask | approve | "" (no say: only new `arguments`)
    reason: str = ""
    arguments: dict | None = None
    source: str = "a PreToolUse hook"


STRENGTH = {"block": 3, "ask": 2, "approve": 1, "": 0}  # deny wins, then ask, then allow


def stronger(a: ToolVerdict | None, b: ToolVerdict | None) -> ToolVerdict | None:
    """The verdict that wins of two (block over ask over approve); new arguments carry over."""
    if a is None or b is None:
        return a or b
    win, other = (a, b) if STRENGTH[a.decision] >= STRENGTH[b.decision] else (b, a)
    if win.arguments is None and other.arguments is not None:
        win = replace(win, arguments=other.arguments)
    return win


class AgentHooks:
    """Every method is a no-op; override what you need. A hook may raise to stop the task."""

    def on_task_start(self, task: str) -> None: ...

    def prompt_context(self, task: str) -> str:
        """Text to send with the task's message (e.g. a user hook's additional context)."""
        return ""

    def check_tool(self, call: ToolCall) -> ToolVerdict | None:
        """Block, ask or approve a call before it runs; None leaves it to the tool's own rules."""
        return None

    def on_tool_blocked(self, call: ToolCall, reason: str) -> None:
        """A call did not run: a hook or a permission rule blocked it (`reason` says which)."""

    def before_request(self, turn: int) -> None: ...

    def stop_check(self, result: TaskResult, active: bool) -> str | None:
        """The model answered: a reason to go on instead of stopping (a Stop hook's block),
        or None to end the task. `active`: the task already went on for such a reason."""
        return None

    def on_stream(self, event: StreamEvent) -> None: ...

    def on_retry(self, attempt: int, wait: float, reason: str) -> None:
        """Retry `attempt` starts in `wait` seconds; called again about once a second as the
        countdown runs (same attempt, less wait). `reason`: "HTTP 429", "overloaded", ..."""

    def on_response(self, response: ModelResponse) -> None: ...

    def on_wait(self, what: str, seconds: float, names: tuple[str, ...] = ()) -> None:
        """The task waited `seconds` for something besides the model and its tools, before
        the request it is about to make: `what` is "codemap" (the code map's first overview,
        at the task's start), "mcp" (the MCP servers `names`, still starting: their tools
        join at the first request) or "plugins" (loading them)."""

    def on_tool_start(self, call: ToolCall) -> None: ...

    def on_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None: ...

    def on_fact(self, fact: Fact) -> None: ...

    def on_task_end(self, result: TaskResult) -> None: ...

    def on_child_tool_start(self, call: ToolCall) -> None:
        """A sub-agent started a tool call (the screen shows it under the parent's `task`)."""

    def on_child_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        """A sub-agent's tool call ended."""

    def on_child_response(self, response: ModelResponse) -> None:
        """A sub-agent's request was answered (its tokens, for /usage)."""

    def on_child_end(self, result: TaskResult) -> None:
        """A sub-agent's task ended (the ledger counts a request it had under way); the
        parent's own task goes on."""

    def on_task_timed(self, result: TaskResult) -> None:
        """After every hook's `on_task_end`: the task's times are final, the end hooks' own
        included (`--time` reports them here)."""

    def on_budget_warning(self, warning: BudgetWarning) -> None:
        """A budget crossed 60% or 80% (the UI shows `warning.text`)."""


class HookList(AgentHooks):
    """Fans every call out to several hooks, in order.

    Gates (`on_task_start`, `prompt_context`, `before_request`, `check_tool`, `on_tool_start`,
    `stop_check`) stop at the first hook that raises (`stop_check` also at the first reason):
    a raise there stops the task (e.g. a budget), and later hooks must not act as if the step
    went ahead. Every other event reaches all hooks; the first exception is then
    re-raised, so one failing hook cannot keep the transcript or the ledger from hearing it.
    """

    def __init__(self, hooks: list[AgentHooks]) -> None:
        self.hooks = hooks

    def on_task_start(self, task: str) -> None:
        for hook in self.hooks:
            hook.on_task_start(task)

    def prompt_context(self, task: str) -> str:
        return "\n\n".join(text for hook in self.hooks if (text := hook.prompt_context(task)))

    def check_tool(self, call: ToolCall) -> ToolVerdict | None:
        """The first block wins; otherwise an ask, then an approval, if any hook gave one."""
        found: ToolVerdict | None = None
        for hook in self.hooks:
            found = stronger(found, hook.check_tool(call))
            if found is not None and found.decision == "block":
                return found
        return found

    def on_tool_blocked(self, call: ToolCall, reason: str) -> None:
        _call_all([hook.on_tool_blocked for hook in self.hooks], call, reason)

    def before_request(self, turn: int) -> None:
        for hook in self.hooks:
            hook.before_request(turn)

    def on_tool_start(self, call: ToolCall) -> None:
        for hook in self.hooks:
            hook.on_tool_start(call)

    def stop_check(self, result: TaskResult, active: bool) -> str | None:
        return next((r for h in self.hooks if (r := h.stop_check(result, active))), None)

    def on_stream(self, event: StreamEvent) -> None:
        _call_all([hook.on_stream for hook in self.hooks], event)

    def on_retry(self, attempt: int, wait: float, reason: str) -> None:
        _call_all([hook.on_retry for hook in self.hooks], attempt, wait, reason)

    def on_response(self, response: ModelResponse) -> None:
        _call_all([hook.on_response for hook in self.hooks], response)

    def on_wait(self, what: str, seconds: float, names: tuple[str, ...] = ()) -> None:
        _call_all([hook.on_wait for hook in self.hooks], what, seconds, names)

    def on_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        _call_all([hook.on_tool_end for hook in self.hooks], call, output, seconds)

    def on_fact(self, fact: Fact) -> None:
        _call_all([hook.on_fact for hook in self.hooks], fact)

    def on_task_end(self, result: TaskResult) -> None:
        _call_all([hook.on_task_end for hook in self.hooks], result)

    def on_child_tool_start(self, call: ToolCall) -> None:
        _call_all([hook.on_child_tool_start for hook in self.hooks], call)

    def on_child_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        _call_all([hook.on_child_tool_end for hook in self.hooks], call, output, seconds)

    def on_child_response(self, response: ModelResponse) -> None:
        _call_all([hook.on_child_response for hook in self.hooks], response)

    def on_child_end(self, result: TaskResult) -> None:
        _call_all([hook.on_child_end for hook in self.hooks], result)

    def on_task_timed(self, result: TaskResult) -> None:
        _call_all([hook.on_task_timed for hook in self.hooks], result)

    def on_budget_warning(self, warning: BudgetWarning) -> None:
        _call_all([hook.on_budget_warning for hook in self.hooks], warning)


def _call_all(methods: list, *args: object) -> None:
    """Call every method; re-raise the first exception once all have run."""
    error: BaseException | None = None
    for method in methods:
        try:
            method(*args)
        except BaseException as exc:  # noqa: BLE001 - re-raised below
            if error is None:
                error = exc
    if error is not None:
        raise error
