"""Sub-agents for the `task` tool: a child agent with a fresh context, a tool subset and a
share of the budget; its requests are ledger rows of the parent's task; only its report
goes back to the parent. Ctrl-C in the child stops the parent's task too (history valid)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from core.agent.events import AgentHooks, HookList, TaskResult
from core.agent.extensions.agent_defs import INHERIT, AgentDef, find_agents
from core.agent.loop.agent import Agent
from core.agent.loop.turns import TurnCount
from core.agent.prompts.system import FixedPrompt, build_system_prompt
from core.context import Archive, CacheAwareContext, session_budget
from core.model import ModelClient, resolve_provider
from my_agent.errors import BudgetExceeded, Interrupted, ToolInterrupted
from my_agent.messages import ModelResponse, PromptSection, StreamEvent, ToolCall
from tools.base import ToolContext, ToolOutput
from tools.registry import Registry
from tools.todo import TodoList

CHILD_MAX_TURNS = 30
CHILD_TOKENS = 400_000  # a child's share: input + output over all its requests
CHILD_NOTE = (
    "You are a sub-agent started by another agent for one task. You see only this task, not "
    "its conversation. Work on your own with your tools; your last message is your report, "
    "the only thing the other agent reads: make it complete and short (findings, paths with "
    "line numbers, what you changed), no preamble."
)

CHILD_STOPPED = "interrupted; the sub-agent was stopped"


class ShareUsed(BudgetExceeded):
    """The child used its share of the budget."""


class ChildHooks(AgentHooks):
    """The parent's ledger recorder and budget guard hear the child's requests (the task id
    stays the parent's); the child's own share is checked before each request; the watchers
    (the screen) hear its tool calls and answered requests as a child's."""

    def __init__(
        self, parent: list[AgentHooks], share: int, watchers: list[AgentHooks] | None = None
    ) -> None:
        self.parent = HookList(parent)
        self.watchers = HookList(watchers or [])
        self.share, self.used, self.requests = share, 0, 0

    def before_request(self, turn: int) -> None:
        if self.used >= self.share:
            raise ShareUsed(f"the sub-agent used its budget share ({self.share:,} tokens)")
        self.parent.before_request(turn)

    def on_stream(self, event: StreamEvent) -> None:
        self.parent.on_stream(event)

    def on_response(self, response: ModelResponse) -> None:
        self.requests += 1
        self.used += response.usage.total_input + response.usage.output
        self.parent.on_response(response)
        self.watchers.on_child_response(response)

    def on_tool_start(self, call: ToolCall) -> None:
        self.watchers.on_child_tool_start(call)

    def on_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        self.watchers.on_child_tool_end(call, output, seconds)

    def on_task_end(self, result: TaskResult) -> None:
        self.parent.on_child_end(result)  # a request cut short is estimated and recorded


@dataclass
class SubAgentRunner:
    """`tools.services.SubAgents` for one session."""

    client: ModelClient
    registry: Registry
    parent_context: Callable[[], ToolContext]  # read at each run: the mode may have changed
    accounting: list[AgentHooks]  # the ledger recorder and budget guard
    workspace: Path
    home: Path
    turns: Callable[[], TurnCount | None] = lambda: None  # the parent task's (--max-turns)
    share: int = CHILD_TOKENS
    last: ChildHooks | None = None  # the latest child's counts (tests, /usage)
    watchers: list[AgentHooks] = field(default_factory=list)  # the screen: a child's tool lines

    def definitions(self) -> Mapping[str, AgentDef]:
        return find_agents(self.workspace, self.home)

    def run(self, agent: str, prompt: str, /) -> str:
        found = self.definitions()
        spec = found.get(agent or "general")
        if spec is None:
            return f"no sub-agent named {agent!r}; known: {', '.join(found)}"
        hooks = ChildHooks(self.accounting, spec.max_tokens or self.share, self.watchers)
        self.last = hooks
        child = self._child(spec, hooks)
        try:
            result = child.run(prompt)
        except Interrupted:  # the parent's call gets what the child had; its task stops too
            raise ToolInterrupted(partial_report(child, hooks), CHILD_STOPPED) from None
        except BudgetExceeded as exc:
            return f"[sub-agent stopped: {exc}]\n{last_words(child)}".strip()
        if result.stop != "done":
            return f"[sub-agent stopped: {result.stop}]\n{result.text}".strip()
        return result.text

    def _child(self, spec: AgentDef, hooks: ChildHooks) -> Agent:
        parent = self.parent_context()
        tools = [
            t
            for name, t in self.registry.tools.items()
            if name != "task" and (not spec.tools or name in spec.tools)
        ]
        registry = self.registry.only(tools)
        services = replace(parent.services, subagents=None, todos=TodoList())
        context = replace(parent, services=services)  # same prompter, mode and approvals set
        context.approvals = parent.approvals
        body = "\n\n".join(p for p in (CHILD_NOTE, spec.prompt) if p)
        text = build_system_prompt(self.workspace, [PromptSection("sub-agent", body)])
        client = self._client(spec.model)
        budget = session_budget(client.provider.profile, text, registry.specs())
        return Agent(
            client=client,
            registry=registry,
            tool_context=context,
            system_prompt=FixedPrompt(text),
            hooks=hooks,
            context=CacheAwareContext(Archive(), budget),
            max_turns=CHILD_MAX_TURNS,
            shared_turns=self.turns(),
        )

    def _client(self, model: str) -> ModelClient:
        if model.strip().lower() in INHERIT or model == self.client.provider.model:
            return self.client
        provider = resolve_provider(self.client.provider.profile.name, model)
        return ModelClient(provider, sleep=self.client.sleep)


def last_words(child: Agent) -> str:
    """The child's last finished reply with text ("" when it wrote none)."""
    return next((m.text for m in reversed(child.history) if m.role == "assistant" and m.text), "")


def partial_report(child: Agent, hooks: ChildHooks) -> str:
    """The parent's tool result for a child stopped by Ctrl-C: that it was stopped, how far
    it got, and its last finished words (the reply it was streaming is discarded)."""
    calls = sum(len(m.tool_calls) for m in child.history)
    last = last_words(child)
    head = (
        f"[sub-agent interrupted by the user after {hooks.requests} finished request(s) and "
        f"{calls} tool call(s); its report is incomplete]"
    )
    return f"{head}\n{last}".strip() if last else head
