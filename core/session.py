"""Assembles an agent for one session from options: provider, tools, prompt, hooks."""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

from core.agent import Agent
from core.errors import UnicumError
from core.events import AgentHooks
from core.model_client import ModelClient
from core.prompts import PromptSection, build_system_prompt
from my_agent.config import resolve_provider, unicum_home
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
    codemap: bool = True  # repo overview in the system prompt (index built in the background)
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
    agent = Agent(client=ModelClient(provider), registry=registry, tool_context=ctx,
                  system_prompt=build_system_prompt(workspace, sections),
                  hooks=hooks or AgentHooks(), max_turns=opts.max_turns)
    if opts.codemap:
        from core.codemap.overview import attach_overview

        attach_overview(agent, workspace, ctx, list(sections or []))
    return agent
