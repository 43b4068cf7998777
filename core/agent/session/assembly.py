"""Builds a session in one pass from its options: provider, tools and their services, the
system prompt, hooks, context policy and resumed history; then the agent, left alone."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from core.agent.events import AgentHooks, HookList
from core.agent.extensions.agent_defs import agents_section
from core.agent.extensions.joined import Extensions, open_extensions
from core.agent.extensions.plugins import PluginLoader
from core.agent.extensions.rules import PermissionRules, RuleSet, load_rules
from core.agent.extensions.subagent import SubAgentRunner
from core.agent.extensions.user_hooks import UserHooks, load_hooks
from core.agent.loop.agent import INTERRUPTED, Agent
from core.agent.loop.compact import make_summarizer
from core.agent.loop.nudge import Nudge
from core.agent.options import SessionOptions, check_workspace
from core.agent.prompts.system import FixedPrompt, PromptSection, SystemPrompt
from core.agent.records.accounting import LedgerHooks, request_text, setup_accounting
from core.agent.records.context_file import ContextFile
from core.agent.records.debug_log import DebugHooks, DebugLog
from core.agent.records.team import open_memory
from core.agent.records.transcript import (
    Transcript,
    TranscriptHooks,
    claim_session,
    close_open_tool_calls,
    read_history,
    tasks_started,
    transcript_path,
)
from core.agent.session.codemap_hooks import PromptWithOverview
from core.agent.session.git_work import git_section
from core.agent.session.memory_hooks import MemoryHooks
from core.agent.session.safety import added_dirs, attach_safety
from core.agent.session.services import tool_services
from core.agent.session.system_prompt import session_prompt
from core.agent.session.tool_choice import appended_section, chosen_tools, flag_rules
from core.agent.session.toolset import choose_tools, session_ask
from core.codemap import CodeMap
from core.context import Archive, ContextBudget, archive_path, context_policy, session_budget
from core.facts import RULES
from core.ledger import Ledger
from core.memory import MemoryStore
from core.model import ModelClient, ResolvedProvider, discover_window, resolve_provider
from my_agent.home import check_home, project_id, unicum_home
from my_agent.messages import Message, ModelResponse
from my_agent.secrets import secret_values
from my_agent.trust import is_trusted
from tools.base import NoPrompter, Prompter, ToolContext
from tools.registry import Registry
from tools.todo import TodoList


@dataclass
class LiveSession:
    """A ready agent and what the session keeps beside it: memory saved at the end, the
    ledger, the code map, its warnings, and (when recorded) transcript and debug log."""

    agent: Agent
    memory_hooks: MemoryHooks
    ledger: Ledger
    code_map: CodeMap
    notices: list[str]  # the ledger thread and the transcript reader append here
    extensions: Extensions  # plugins and MCP servers
    transcript: Transcript | None = None
    debug_log: DebugLog | None = None
    resumed: int = 0  # messages restored from a saved session
    user_hooks: UserHooks | None = None  # the settings' hook commands, when any are configured
    tool_line: str = ""  # which tools are offered and why (said once at start)
    recorder: LedgerHooks | None = None  # the ledger's row per response
    context_file: ContextFile | None = None  # the context policy's state, for a resume
    rules: RuleSet | None = None  # the permission rules the session checks (live)

    def cost_of(self, response: ModelResponse) -> float | None:
        """What the ledger records `response` as costing (None: no price known)."""
        return self.recorder.measure(response)[1] if self.recorder is not None else None

    def save(self) -> None:
        """Write what the UI itself added to the history (an /undo note, a repaired call) and
        what the context policy holds now (after /compact)."""
        if self.transcript is not None:
            self.transcript.sync(self.agent.history)
        if self.context_file is not None:
            self.context_file.save()

    def warnings(self) -> list[str]:
        """Warnings to show the user (e.g. a corrupt memory file or ledger set aside, a ledger
        that cannot be written, skipped transcript lines); each shown once."""
        found = [self.notices.pop(0) for _ in range(len(self.notices))]  # the ledger may append
        return list(dict.fromkeys(self.memory_hooks.take_warnings() + found))  # 3 readers, 1 line

    def close(self, reason: str = "other") -> None:
        """Session end: the SessionEnd hooks (`reason` as Claude Code's), memory the last task
        left behind saved and consolidated, the ledger flushed (a write failure becomes a
        warning the caller shows now)."""
        if self.user_hooks:
            self.user_hooks.session_end(reason)
        self.memory_hooks.close()
        self.memory_hooks.consolidate()
        self.ledger.flush()
        self.extensions.close()
        if self.context_file is not None:
            self.context_file.save()
        if self.transcript is not None:
            self.transcript.close()  # another process may continue the session now


def resumed_options(opts: SessionOptions, resume: Path | None) -> SessionOptions:
    """A resumed session keeps the id of the transcript it continues."""
    return opts if resume is None else replace(opts, session_id=resume.stem)


@dataclass
class _Ground:
    """What the rest of a session is built on."""

    workspace: Path
    home: Path
    provider: ResolvedProvider
    registry: Registry
    store: MemoryStore
    code_map: CodeMap
    archive: Archive
    team_url: str  # the team database ("" when local)
    extensions: Extensions
    trusted: bool  # the folder's .env, imports and skills are loaded
    tool_line: str  # which tools are offered and why, said once at start
    rules: RuleSet  # permission rules: the settings' and the flags'
    tool_set: str  # lean | full | asked


def _ground(opts: SessionOptions, resume: Path | None, warn: Callable[[str], None]) -> _Ground:
    workspace = check_workspace(opts.workspace)
    plugins = PluginLoader(warn)  # loaded when first needed
    provider = resolve_provider(opts.provider, opts.model, lambda: plugins.get().providers)
    provider = discover_window(provider, warn)  # a local server says its window (<= 1 s)
    home = check_home(unicum_home())
    store, team_url = open_memory(home, workspace, warn)
    trusted = opts.trusted or is_trusted(workspace, home)
    choice = choose_tools(Registry.default(), session_ask(opts, provider, workspace, home, trusted))
    registry = chosen_tools(choice.registry, opts.disallowed_tools)
    rules = flag_rules(
        load_rules(workspace, home, warn), opts.allowed_tools, opts.disallowed_tools, registry
    )
    mcp_flags = (opts.interactive, opts.mcp_config, opts.strict_mcp)
    return _Ground(
        workspace,
        home,
        provider,
        registry,
        store,
        CodeMap(workspace, home),
        session_archive(home, workspace, opts.session_id, resume),
        team_url,
        open_extensions(workspace, home, registry, dict(RULES), warn, plugins, *mcp_flags),
        trusted,
        choice.line if opts.interactive or choice.set != "full" else "",  # -p: lean only
        rules,
        choice.set,
    )


def open_session(
    opts: SessionOptions,
    hooks: Sequence[AgentHooks] = (),
    prompter: Prompter | None = None,
    resume: Path | None = None,
    *,
    debug: bool = False,
    record: bool = True,
    sleep: Callable[[float], None] = time.sleep,
    sections: Sequence[PromptSection] = (),
) -> LiveSession:
    """The whole session from its options. `hooks`, `prompter` and `sleep` (the wait between
    retries) come from the UI; `record` keeps a transcript, `debug` a debug log. The system
    prompt holds project memory, so `/new` and `/cd` (a new session) re-inject it."""
    opts = resumed_options(opts, resume)
    notices: list[str] = []
    g = _ground(opts, resume, notices.append)
    opts = replace(opts, add_dirs=(*opts.add_dirs, *g.rules.additional_dirs))  # settings' too
    lock = claim_session(resume or transcript_path(g.home, g.workspace, opts.session_id))
    memory_hooks = MemoryHooks(g.store, opts.session_id, g.extensions.memory_rules)
    sections = [*sections, agents_section(g.workspace, g.home, notices)]
    sections = [*sections, *appended_section(opts.append_system_prompt)]
    sections = [*sections, *git_section(g.workspace)]  # branch and short status
    prompt, budget = _prompt(opts, g, sections, memory_hooks.warnings)
    saved = read_history(resume, notices) if resume is not None else []
    history = list(saved)
    close_open_tool_calls(history, INTERRUPTED)
    secrets = secret_values(dotenv_files=(g.home / ".env", g.workspace / ".env"))
    accounting = setup_accounting(
        opts,
        g.provider,
        g.workspace,
        g.home,
        HookList(list(hooks)),  # budget warnings go to the UI
        notices.append,
        lambda: request_text(prompt, history),
        g.team_url,
        first_task=tasks_started(resume) if resume is not None else 0,
        secrets=secrets,
    )
    writing = {"secrets": secrets, "warn": notices.append, "lock": lock}
    transcript = _transcript(opts, g, resume, saved, history, writing) if record else None
    log = DebugLog(g.home, opts.session_id, secrets) if debug else None
    todos = TodoList()
    tool_context = _tool_context(opts, g, prompter, todos)
    safety = attach_safety(tool_context, opts, notices)  # sandbox probed, snapshots ready
    user_hooks = _user_hooks(opts, g, transcript, notices.append)
    if user_hooks:
        user_hooks.mode = lambda: tool_context.permission_mode
    listeners: list[AgentHooks] = [g.extensions, *accounting.hooks(), *hooks, memory_hooks]
    listeners += [safety]
    listeners += [PermissionRules(g.rules, g.workspace)]  # `/permissions` may add rules live
    listeners += [user_hooks] if user_hooks else []
    listeners += [TranscriptHooks(transcript, lambda: history)] if transcript else []
    state = (
        ContextFile(
            transcript.path, lambda: agent.context, lambda: history, secrets, notices.append
        )
        if transcript
        else None
    )
    listeners += [state] if state else []
    listeners += [DebugHooks(log)] if log else []
    every = HookList(listeners)
    g.extensions.report = every.on_wait  # what fixing the tool list waited for (`--time`)
    client = ModelClient(
        g.provider, sleep=sleep, on_request=partial(log.write, "request") if log else None
    )
    subagents = SubAgentRunner(
        client, g.registry, lambda: tool_context, accounting.hooks(), g.workspace, g.home,
        lambda: agent.turns,
    )  # fmt: skip
    subagents.watchers = list(hooks)  # the screen hears the child's tool calls too
    tool_context.services.subagents = subagents
    agent = Agent(
        client=client,
        registry=g.registry,
        tool_context=tool_context,
        system_prompt=prompt,
        hooks=every,
        context=context_policy(
            opts.context_policy,
            g.archive,
            budget,
            make_summarizer(client, every),
            g.extensions.fact_rules,
            pinned=todos.render,
        ),
        history=history,
        max_turns=opts.max_turns,
        fact_rules=g.extensions.fact_rules,
        notices=notices,  # e.g. a server that does not parse tool calls
        nudge=Nudge(g.tool_set == "lean", g.workspace),
    )
    safety.history = lambda: agent.history
    if resume is not None and state is not None:
        state.restore(history)  # the summary, archived outputs and lined reads it had
    if opts.codemap:
        g.code_map.start_background(workers=1)  # its overview joins the prompt at the first task
    if user_hooks:
        user_hooks.session_start("resume" if resume is not None else "startup")
    return LiveSession(
        agent,
        memory_hooks,
        accounting.ledger,
        g.code_map,
        notices,
        g.extensions,
        transcript,
        log,
        len(saved),
        user_hooks,
        g.tool_line,
        accounting.recorder,
        state,
        g.rules,
    )


def _user_hooks(
    opts: SessionOptions, g: _Ground, transcript: Transcript | None, warn: Callable[[str], None]
) -> UserHooks | None:
    """The settings' hook commands (None when there are none, so they cost nothing)."""
    found = load_hooks(g.workspace, g.home, warn)
    if not found:
        return None
    path = transcript.path if transcript is not None else None
    return UserHooks(found, g.workspace, opts.session_id, warn, path)


def _tool_context(
    opts: SessionOptions, g: _Ground, prompter: Prompter | None, todos: TodoList
) -> ToolContext:
    services = tool_services(g.workspace, g.home, g.store, g.code_map, g.archive, trusted=g.trusted)
    services.todos = todos
    return ToolContext(
        workspace=g.workspace,
        home=g.home,
        prompter=prompter or NoPrompter(approve_all=opts.yes),
        permission_mode=opts.permission_mode,
        session_id=opts.session_id,
        image_limits=g.provider.image_limits,
        services=services,
        approvals=added_dirs(opts.add_dirs),
    )


def _prompt(
    opts: SessionOptions, g: _Ground, sections: list[PromptSection], warnings: list[str]
) -> tuple[SystemPrompt, ContextBudget]:
    """The system prompt, and the context budget that counts it; with `overview_in_prompt`,
    the code map's overview joins the prompt at the first task (the budget grows with it);
    by default the model asks for it (code_map overview) and every request is ~1k smaller."""
    lean = g.tool_set == "lean"
    text = session_prompt(g.workspace, g.store, opts.task_hint, sections, warnings, g.trusted, lean)
    budget = session_budget(g.provider.profile, text, g.registry.specs())
    if not (opts.codemap and opts.overview_in_prompt):  # on demand: code_map overview
        return FixedPrompt(text), budget

    def rebuild(section: PromptSection) -> str:
        return session_prompt(
            g.workspace, g.store, opts.task_hint, [*sections, section], trusted=g.trusted, lean=lean
        )

    return PromptWithOverview(text, g.code_map, rebuild, budget), budget


def _transcript(
    opts: SessionOptions,
    g: _Ground,
    resume: Path | None,
    saved: list[Message],
    history: list[Message],
    writing: dict,
) -> Transcript:
    """The saved session continued, or a new one (its file appears with the first message).
    `writing`: the secrets redacted on disk, the warning callback and the session's lock."""
    if resume is None:
        return Transcript.create(
            g.home,
            g.workspace,
            opts.session_id,
            provider=g.provider.profile.name,
            model=g.provider.model,
            **writing,
        )
    transcript = Transcript(resume, history=saved, **writing)
    transcript.sync(history)  # tool calls an interruption left open are answered on disk too
    return transcript


def create_agent(
    opts: SessionOptions,
    hooks: AgentHooks | None = None,
    prompter: Prompter | None = None,
    sections: Sequence[PromptSection] = (),
) -> Agent:
    """A session's agent with no transcript (tests, benchmarks, embedding)."""
    listeners = [hooks] if hooks is not None else []
    return open_session(opts, listeners, prompter, record=False, sections=sections).agent


def session_archive(home: Path, workspace: Path, session_id: str, resume: Path | None) -> Archive:
    """The session's archive, persisted per project and session so a resumed one recalls. A
    session resumed from another folder's saved sessions keeps its own (stored under the
    project it was saved in: sessions/<project id>/<session id>.jsonl)."""
    project = resume.parent.name if resume is not None else project_id(workspace)
    return Archive.open(archive_path(home, project, session_id))
