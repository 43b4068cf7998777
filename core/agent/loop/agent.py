"""The agent loop: ask the model, run the tools it calls, repeat until it answers."""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from core.agent.events import AgentHooks, TaskResult, ToolVerdict
from core.agent.loop.guard import LoopGuard
from core.agent.loop.nudge import Nudge
from core.agent.loop.text_calls import read_text_calls, server_fix
from core.agent.loop.turns import TurnCount
from core.agent.options import MAX_TURNS
from core.agent.prompts.system import SystemPrompt
from core.context import ContextPolicy, FullHistory, shows_archived
from core.facts import RULES, Rule
from core.facts import extract as extract_fact
from core.model import ModelClient
from my_agent.errors import BudgetExceeded, Interrupted, ModelError, ToolInterrupted
from my_agent.messages import (
    ImageBlock,
    Message,
    ModelResponse,
    TextBlock,
    ToolCall,
    ToolResult,
    message_text,
)
from tools.base import NoPrompter, ToolContext, ToolOutput
from tools.permissions import refusal
from tools.registry import Registry

INTERRUPTED = "interrupted by the user before this tool finished"
BLOCKED = "blocked by {source}; the call did not run: {why}"
ASKED = "{source} asks before {name} runs ({why}). Run it?"
FIT_TRIES = 3  # requests a too-long history gets, compacted before each retry
MAX_STOP_CONTINUES = 3  # a Stop hook that always blocks cannot keep a task going forever
STOP_CAP = "a Stop hook asked to go on again; stopped after {n} continuations (its reason: {why})"
STOP_NO_TURNS = (
    "a Stop hook asked to go on, but no turns are left (--max-turns {n}; its reason: {why})"
)


@dataclass
class Agent:
    client: ModelClient
    registry: Registry
    tool_context: ToolContext
    system_prompt: SystemPrompt
    hooks: AgentHooks = field(default_factory=AgentHooks)
    context: ContextPolicy = field(default_factory=FullHistory)
    history: list[Message] = field(default_factory=list)
    max_turns: int = MAX_TURNS
    fact_rules: Mapping[str, Rule] = field(default_factory=lambda: RULES)
    context_seconds: float = 0.0  # time the last request's context took to build (--time)
    guard: LoopGuard = field(default_factory=LoopGuard)
    notices: list[str] = field(default_factory=list)  # lines for the user, each shown once
    text_calls_noted: bool = False
    shared_turns: TurnCount | None = None  # a sub-agent's: its parent task's count
    nudge: Nudge = field(default_factory=Nudge)  # the lean set's model: an answer, nothing done
    turns: TurnCount = field(default_factory=lambda: TurnCount(MAX_TURNS))  # the task's

    def run(self, task: str, images: Sequence[ImageBlock] = (), label: str = "") -> TaskResult:
        """Run one user task (with images the user attached) to its end; Ctrl-C raises
        Interrupted with the history left valid. `label` is what the user typed when `task`
        says more (a plan-mode note, attached files): the ledger, the transcript and /rewind
        name the task by it."""
        started = time.monotonic()  # --time counts the start too: code map wait, memory, hooks
        self.system_prompt.start_task(task)  # the prompt may settle now (the code map overview)
        overview = time.monotonic() - started
        context = self.hooks.prompt_context(task)  # a user hook may refuse the prompt here
        self.hooks.on_task_start(label or task)
        self.hooks.on_wait("codemap", overview)
        self.guard.start_task()
        self.nudge.start_task()
        self.turns = self.shared_turns or TurnCount(self.max_turns)
        message = Message("user", [TextBlock(task), *images])
        if context:
            message.blocks.append(TextBlock(f"\n\n{context}"))
        self.history.append(message)
        return self._run_task(started, time.monotonic() - started)

    def resume(self) -> TaskResult:
        """Continue the current task from its history (e.g. after a budget was extended)."""
        return self._run_task(time.monotonic())

    def _run_task(self, started: float, setup: float = 0.0) -> TaskResult:
        result = TaskResult(text="", setup_seconds=setup)
        try:
            self._loop(result)
        except BaseException as exc:
            result.stop = stop_reason(exc)
            raise
        finally:
            ending = time.monotonic()
            result.total_seconds = ending - started
            try:
                self.hooks.on_task_end(result)
            finally:
                tail = time.monotonic() - ending
                result.end_seconds += tail
                result.total_seconds += tail
                self.hooks.on_task_timed(result)
        return result

    def _loop(self, result: TaskResult) -> None:
        continued = 0  # times a Stop hook sent the model back to work
        for turn in range(1, self.max_turns + 1):
            if not self.turns.take():  # sub-agents used the task's turns
                break
            self._count(result)  # a request that fails (a rejected key) is a turn taken too
            response = self.query(turn)
            self._count(result, response)
            result.model_seconds += response.duration
            self.history.append(response.message)
            calls = response.message.tool_calls or self._text_calls()
            if not calls:
                last = turn == self.max_turns or self.turns.used >= self.turns.limit
                if not last and self._told_to_act(result, response.message.text):
                    continue
                result.text = result.text or response.message.text
                if not self._goes_on(result, continued, last=last):
                    return
                continued += 1
                continue
            started = time.monotonic()
            self.guard.new_reply()
            self.execute(calls)
            self._count(result)  # the requests of sub-agents the calls started
            result.tool_calls += len(calls)
            result.tool_seconds += time.monotonic() - started
            if self.guard.stopped:
                result.stop, result.text = "repeated", self.guard.stopped
                return
        result.stop = "max_turns"
        n = self.turns.limit if self.shared_turns is None else result.turns
        children = " (sub-agents' turns included)" if self.turns.children else ""
        result.text = (
            f"Stopped after {n} turns without a final answer{children} "
            "(raise --max-turns or ask me to continue)."
        )

    def _count(self, result: TaskResult, response: ModelResponse | None = None) -> None:
        """The task's turns and usage so far: every request, its sub-agents' included (a
        sub-agent's own result counts its own requests)."""
        if response is not None:
            self.turns.usage = self.turns.usage + response.usage
            self.turns.children += self.shared_turns is not None
            if self.shared_turns is not None:
                result.turns, result.usage = result.turns + 1, result.usage + response.usage
        if self.shared_turns is None:
            result.turns, result.usage = self.turns.used, self.turns.usage

    def _told_to_act(self, result: TaskResult, text: str) -> bool:
        """A small model's answer before anything changed (or an empty one) is sent back with
        a note naming the next step (`nudge.py`)."""
        note = self.nudge.note(text, result.tool_calls)
        if note is None:
            return False
        self.history.append(Message("user", [TextBlock(note)]))
        return True

    def _goes_on(self, result: TaskResult, continued: int, last: bool) -> bool:
        """The model answered: a Stop hook may send it back with a reason (a user message),
        unless that was the `last` turn allowed (the answer stands, with a notice)."""
        began = time.monotonic()
        why = self.hooks.stop_check(result, continued > 0) if result.stop == "done" else None
        result.end_seconds += time.monotonic() - began  # Stop hooks are end time too
        if not why:
            return False
        if continued >= MAX_STOP_CONTINUES or last:
            cap = STOP_NO_TURNS if last else STOP_CAP
            self.notices.append(cap.format(n=self.max_turns if last else continued, why=why))
            return False
        self.history.append(Message("user", [TextBlock(f"[Stop hook] {why}")]))
        result.text = ""
        return True

    def _text_calls(self) -> list[ToolCall]:
        """Calls the reply wrote as text (a server that does not parse them): run them as
        calls, the prose around them kept as the reply's text."""
        prefix = f"text_call_{uuid.uuid4().hex[:12]}"  # unique even after a /rewind
        found = read_text_calls(self.history[-1].text, prefix)
        if found is None:
            return []
        said = [TextBlock(found.prose)] if found.prose else []
        self.history[-1] = Message("assistant", [*said, *found.calls])
        if not self.text_calls_noted:
            self.text_calls_noted = True
            p = self.client.provider
            self.notices.append(server_fix(p.profile.name, p.base_url, p.window_source))
        return found.calls

    def query(self, turn: int) -> ModelResponse:
        self.hooks.before_request(turn)
        started = time.monotonic()
        messages = self.context.messages_for_request(self.history)
        if self.registry.later and shows_archived(messages):
            self.registry.release(self.tool_context)  # recall, once the model sees a stand-in
        self.context_seconds = time.monotonic() - started
        try:
            response = self._request_fitting(messages)
        except KeyboardInterrupt:
            raise Interrupted("interrupted; the reply so far was discarded") from None
        self.hooks.on_response(response)
        self.context.observe_usage(response.usage.total_input)
        return response

    def _request_fitting(self, messages: list[Message]) -> ModelResponse:
        """One request; while the server says it is too long and the history can be made
        smaller (compacted, or cropped harder now the server counts more than estimated),
        try again (at most `FIT_TRIES` requests)."""
        for _ in range(FIT_TRIES):
            try:
                return self._request(messages)
            except ModelError as exc:
                if not exc.too_long:
                    raise
                status = exc.status
            compacted = self.context.on_overflow(self.history)
            smaller = self.context.messages_for_request(self.history)
            if not compacted and _size(smaller) >= _size(messages):
                break
            messages = smaller
        interactive = self.tool_context.prompter.interactive
        raise ModelError(still_too_long(self.client, interactive), status)

    def _request(self, messages: list[Message]) -> ModelResponse:
        return self.client.stream(
            self.system_prompt.text,
            messages,
            self.registry.specs(),
            self.hooks.on_stream,
            on_retry=self.hooks.on_retry,
        )

    def execute(self, calls: list[ToolCall]) -> None:
        """Run each call; every call gets a result, even when interrupted or a hook fails."""
        results: list[ToolResult] = []
        try:
            for call in calls:
                results.append(self.run_tool(call))
        except BaseException as exc:
            note = (
                INTERRUPTED
                if isinstance(exc, KeyboardInterrupt)
                else (f"tool call not completed: {type(exc).__name__}: {exc}")
            )
            done = {r.call_id for r in results}
            rest = [c for c in calls if c.id not in done]
            if isinstance(exc, ToolInterrupted) and rest:  # the running call's own words
                results.append(ToolResult(rest.pop(0).id, exc.result, is_error=True))
            results += [ToolResult(c.id, note, is_error=True) for c in rest]
            self.history.append(Message("user", list(results)))
            if isinstance(exc, KeyboardInterrupt):
                said = exc.line if isinstance(exc, ToolInterrupted) else ""
                line = said or "interrupted; tool calls were stopped"
                raise Interrupted(line) from None
            raise
        self.history.append(Message("user", results))

    def run_tool(self, call: ToolCall) -> ToolResult:
        verdict = self.hooks.check_tool(call)
        if verdict is not None and verdict.arguments is not None:
            call = replace(call, arguments=verdict.arguments)  # a hook's updatedInput
        refused = self._refused(call, verdict)
        if refused is not None:
            self.hooks.on_tool_blocked(call, refused)
            return ToolResult(call.id, refused, True)
        context = self.tool_context
        if verdict is not None and verdict.decision:  # approved (hook, rule or user): no more asks
            context = replace(context, prompter=NoPrompter(approve_all=True))
        self.hooks.on_tool_start(call)
        started = time.monotonic()
        args: object = call.arguments
        if not call.arguments and call.raw_arguments.strip():
            args = call.raw_arguments  # let the registry report bad JSON
        output: ToolOutput = self.registry.execute(call.name, args, context)
        seconds = time.monotonic() - started
        output.content = self.guard.review(call, output, self.registry.tools)  # advice on a repeat
        self.nudge.saw(call, output)
        fact = self.context.on_tool_result(call, output) or extract_fact(
            call, output, self.fact_rules
        )
        self.hooks.on_tool_end(call, output, seconds)
        self.hooks.on_fact(fact)
        return ToolResult(call.id, output.content, output.is_error, images=output.images)

    def _refused(self, call: ToolCall, verdict: ToolVerdict | None) -> str | None:
        """Why the call may not run (a block, or an `ask` the user said no to), else None."""
        if verdict is None or verdict.decision in ("approve", ""):
            return None
        why = verdict.reason or "no reason given"
        if verdict.decision == "block":
            return BLOCKED.format(source=verdict.source, why=why)
        question = ASKED.format(source=verdict.source, name=call.name, why=why)
        answer = self.tool_context.prompter.confirm(question, "")
        return None if answer in ("y", "s", "a") else refusal(self.tool_context, question, answer)


def stop_reason(exc: BaseException) -> str:
    """The true reason a task ended early: interrupted | budget | error."""
    if isinstance(exc, Interrupted | KeyboardInterrupt):
        return "interrupted"
    return "budget" if isinstance(exc, BudgetExceeded) else "error"


def _size(messages: list[Message]) -> int:
    return sum(len(message_text(m)) for m in messages)


def still_too_long(client: ModelClient, interactive: bool = True) -> str:
    """The request does not fit even compacted; `/new` is offered only where it exists."""
    p = client.provider
    return (
        f"the conversation is still too long for {client.model} on {p.profile.name} after "
        f"compacting (window {p.profile.context_window:,} tokens): give the server a larger "
        "context (llama.cpp -c, Ollama num_ctx, LM Studio context length) and set "
        "context_window" + (", or start over with /new" if interactive else "")
    )
