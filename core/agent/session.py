"""Assembles an agent for one session from options: provider, tools, prompt, hooks."""

from __future__ import annotations

from pathlib import Path

from core.agent.accounting import setup_accounting
from core.agent.compact import make_summarizer
from core.agent.events import AgentHooks, HookList
from core.agent.instructions import instructions_section
from core.agent.loop import Agent
from core.agent.memory_hooks import MemoryHooks, take_warnings
from core.agent.options import SessionOptions, check_workspace
from core.agent.prompts import PromptSection, build_system_prompt
from core.agent.safety import attach_safety
from core.agent.services import tool_services
from core.agent.skills import skills_section
from core.context import CacheAwareContext, session_context
from core.memory import MemoryStore, memory_section
from core.model import ModelClient, resolve_provider
from my_agent.home import check_home, unicum_home
from my_agent.tokens import estimate_tokens
from tools.base import NoPrompter, Prompter, ToolContext
from tools.registry import Registry


def create_agent(
    opts: SessionOptions,
    hooks: AgentHooks | None = None,
    prompter: Prompter | None = None,
    sections: list[PromptSection] | None = None,
) -> Agent:
    workspace = check_workspace(opts.workspace)
    provider = resolve_provider(opts.provider, opts.model)
    registry = Registry.default()
    home = check_home(unicum_home())
    store = MemoryStore(home, workspace)
    memory_hooks = MemoryHooks(store, source=opts.session_id)
    ctx = ToolContext(
        workspace=workspace,
        home=home,
        prompter=prompter or NoPrompter(approve_all=opts.yes),
        permission_mode=opts.permission_mode,
        session_id=opts.session_id,
        services={
            **tool_services(workspace, home, store),
            "memory_hooks": memory_hooks,
            "notices": [],
        },
    )
    safety = attach_safety(ctx, opts, session_notices(ctx.services))
    ui_hooks = HookList([hooks or AgentHooks(), memory_hooks, safety])
    accounting = setup_accounting(
        opts, provider, workspace, home, ui_hooks, warn=session_notices(ctx.services).append
    )
    ctx.services["ledger"] = accounting.ledger
    system_prompt = session_prompt(
        workspace, store, opts.task_hint, sections, warnings=memory_hooks.warnings
    )  # e.g. a malformed SKILL.md
    policy = session_context(ctx, provider.profile, system_prompt, registry.specs())
    agent = Agent(
        client=ModelClient(provider),
        registry=registry,
        tool_context=ctx,
        system_prompt=system_prompt,
        hooks=accounting.hooks(ui_hooks),
        max_turns=opts.max_turns,
        context=policy,
    )
    policy.summarize = make_summarizer(agent)
    safety.history = lambda: agent.history
    accounting.watch(agent)
    if opts.codemap:
        attach_codemap(agent, store, opts.task_hint, list(sections or []), policy)
    return agent


def attach_codemap(
    agent: Agent,
    store: MemoryStore,
    task_hint: str,
    sections: list[PromptSection],
    policy: CacheAwareContext,
) -> None:
    """Build the code map in the background; its overview joins the prompt at the first task."""
    from core.agent.codemap_hooks import attach_overview

    workspace = agent.tool_context.workspace

    def rebuild(section: PromptSection) -> str:
        prompt = session_prompt(workspace, store, task_hint, [*sections, section])
        policy.budget.overhead_tokens += estimate_tokens(prompt) - estimate_tokens(
            agent.system_prompt
        )
        return prompt

    attach_overview(agent, workspace, agent.tool_context, rebuild)


def session_prompt(
    workspace: Path,
    store: MemoryStore,
    task_hint: str = "",
    sections: list[PromptSection] | None = None,
    warnings: list[str] | None = None,
) -> str:
    """The system prompt: the stable base, instruction files, skills, the caller's sections,
    then memory last so provider prompt caches keep hitting. `/new` calls it again."""
    return build_system_prompt(
        workspace,
        [
            instructions_section(workspace, store.home),
            skills_section(workspace, store.home, warnings),
            *(sections or []),
            memory_section(workspace, task_hint, store),
        ],
    )


def session_notices(services: dict) -> list[str]:
    """The session's own warning list (ledger, transcript); `session_warnings` drains it."""
    return services.setdefault("notices", [])


def session_warnings(agent: Agent) -> list[str]:
    """Warnings to show the user (e.g. a corrupt memory file or ledger set aside, a ledger that
    cannot be written, skipped transcript lines); each shown once."""
    services = agent.tool_context.services
    notices = session_notices(services)
    found = [notices.pop(0) for _ in range(len(notices))]  # the ledger thread may append
    return take_warnings(services) + found


def end_session(agent: Agent) -> None:
    """Session end: save memory the last task left behind."""
    hooks = agent.tool_context.services.get("memory_hooks")
    if isinstance(hooks, MemoryHooks):
        hooks.close()
    ledger = agent.tool_context.services.get("ledger")
    if ledger is not None:
        ledger.flush()  # a write failure becomes a warning the caller shows now
