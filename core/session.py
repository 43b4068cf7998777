"""Assembles an agent for one session from options: provider, tools, prompt, hooks."""

from __future__ import annotations

import json
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from core.agent import Agent
from core.archive import Archive, archive_path
from core.cache_policy import CacheAwareContext, ContextBudget
from core.errors import UnicumError
from core.events import AgentHooks
from core.model_client import ModelClient
from core.prompts import PromptSection, build_system_prompt
from core.summary import make_summarizer
from core.tokens import estimate_tokens
from my_agent.config import project_id, resolve_provider, unicum_home
from tools.base import NoPrompter, Prompter, ToolContext
from tools.registry import Registry


@dataclass
class SessionOptions:
    workspace: Path
    provider: str | None = None
    model: str | None = None
    permission_mode: str = "ask"
    yes: bool = False
    max_turns: int = 50
    session_id: str = field(default_factory=lambda: new_session_id())


def new_session_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + "-" + secrets.token_hex(3)


def check_workspace(path: Path) -> Path:
    folder = path.expanduser().resolve()
    if not folder.is_dir():
        raise UnicumError(f"--dir {path}: not a folder")
    return folder


def create_agent(opts: SessionOptions, hooks: AgentHooks | None = None,
                 prompter: Prompter | None = None,
                 sections: list[PromptSection] | None = None) -> Agent:
    workspace = check_workspace(opts.workspace)
    provider = resolve_provider(opts.provider, opts.model)
    registry = Registry.default()
    ctx = ToolContext(workspace=workspace, home=unicum_home(),
                      prompter=prompter or NoPrompter(approve_all=opts.yes),
                      permission_mode=opts.permission_mode,
                      session_id=opts.session_id)
    system_prompt = build_system_prompt(workspace, sections)
    policy = default_context(ctx, provider.profile.context_window, system_prompt, registry)
    agent = Agent(client=ModelClient(provider), registry=registry, tool_context=ctx,
                  system_prompt=system_prompt, hooks=hooks or AgentHooks(),
                  max_turns=opts.max_turns, context=policy)
    policy.summarize = make_summarizer(agent)
    return agent


def default_context(ctx: ToolContext, window: int, system_prompt: str,
                    registry: Registry) -> CacheAwareContext:
    """The cache-aware policy with the session's archive (also offered to `recall`)."""
    archive = Archive.open(archive_path(ctx.home, project_id(ctx.workspace), ctx.session_id))
    ctx.services["archive"] = archive
    overhead = estimate_tokens(system_prompt) + estimate_tokens(json.dumps(registry.specs()))
    return CacheAwareContext(archive, ContextBudget(window_tokens=window,
                                                   overhead_tokens=overhead))
