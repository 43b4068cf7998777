"""The agent shell: the loop, events, session assembly, transcript, prompts and instructions.

The face loads a name's module when the name is first used (PEP 562), so the REPL draws its
prompt after importing only the hooks and options it needs, while the background thread that
opens the session loads the rest. The names and where they live are listed once, below."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the same names for type checkers (and the import-graph test)
    from core.agent.accounting import BudgetHooks, LedgerHooks
    from core.agent.agent_defs import AgentDef, find_agents
    from core.agent.compact import compact_session
    from core.agent.context_report import breakdown, status
    from core.agent.custom_commands import CommandTools, CustomCommand, discover_commands
    from core.agent.events import AgentHooks, HookList, TaskResult
    from core.agent.init_doc import agents_md
    from core.agent.instructions import loaded_instruction_files
    from core.agent.live import end_session, resume_path, start_notes
    from core.agent.loop import INTERRUPTED, Agent
    from core.agent.options import SessionOptions, check_workspace, new_session_id
    from core.agent.plugins import GROUPS as PLUGIN_GROUPS
    from core.agent.plugins import Plugins, load_plugins
    from core.agent.prompts import build_system_prompt
    from core.agent.safety import after_restore, rewind_conversation
    from core.agent.session import LiveSession, create_agent, open_session, resumed_options
    from core.agent.settings import load_dotenv_files
    from core.agent.transcript import (
        TranscriptError,
        close_open_tool_calls,
        find_session,
        last_stop,
        list_sessions,
        sessions_dir,
        task_text,
    )

_WHERE: dict[str, tuple[str, str]] = {
    "Agent": ("core.agent.loop", "Agent"),
    "AgentDef": ("core.agent.agent_defs", "AgentDef"),
    "AgentHooks": ("core.agent.events", "AgentHooks"),
    "BudgetHooks": ("core.agent.accounting", "BudgetHooks"),
    "CommandTools": ("core.agent.custom_commands", "CommandTools"),
    "CustomCommand": ("core.agent.custom_commands", "CustomCommand"),
    "HookList": ("core.agent.events", "HookList"),
    "INTERRUPTED": ("core.agent.loop", "INTERRUPTED"),
    "LedgerHooks": ("core.agent.accounting", "LedgerHooks"),
    "LiveSession": ("core.agent.session", "LiveSession"),
    "PLUGIN_GROUPS": ("core.agent.plugins", "GROUPS"),
    "Plugins": ("core.agent.plugins", "Plugins"),
    "SessionOptions": ("core.agent.options", "SessionOptions"),
    "TaskResult": ("core.agent.events", "TaskResult"),
    "TranscriptError": ("core.agent.transcript", "TranscriptError"),
    "after_restore": ("core.agent.safety", "after_restore"),
    "agents_md": ("core.agent.init_doc", "agents_md"),
    "breakdown": ("core.agent.context_report", "breakdown"),
    "build_system_prompt": ("core.agent.prompts", "build_system_prompt"),
    "check_workspace": ("core.agent.options", "check_workspace"),
    "close_open_tool_calls": ("core.agent.transcript", "close_open_tool_calls"),
    "compact_session": ("core.agent.compact", "compact_session"),
    "create_agent": ("core.agent.session", "create_agent"),
    "discover_commands": ("core.agent.custom_commands", "discover_commands"),
    "end_session": ("core.agent.live", "end_session"),
    "find_agents": ("core.agent.agent_defs", "find_agents"),
    "find_session": ("core.agent.transcript", "find_session"),
    "last_stop": ("core.agent.transcript", "last_stop"),
    "list_sessions": ("core.agent.transcript", "list_sessions"),
    "sessions_dir": ("core.agent.transcript", "sessions_dir"),
    "load_dotenv_files": ("core.agent.settings", "load_dotenv_files"),
    "load_plugins": ("core.agent.plugins", "load_plugins"),
    "loaded_instruction_files": ("core.agent.instructions", "loaded_instruction_files"),
    "new_session_id": ("core.agent.options", "new_session_id"),
    "open_session": ("core.agent.session", "open_session"),
    "resume_path": ("core.agent.live", "resume_path"),
    "resumed_options": ("core.agent.session", "resumed_options"),
    "rewind_conversation": ("core.agent.safety", "rewind_conversation"),
    "start_notes": ("core.agent.live", "start_notes"),
    "status": ("core.agent.context_report", "status"),
    "task_text": ("core.agent.transcript", "task_text"),
}

__all__ = [
    "AgentDef",
    "find_agents",
    "BudgetHooks",
    "Agent",
    "CommandTools",
    "CustomCommand",
    "AgentHooks",
    "HookList",
    "INTERRUPTED",
    "LedgerHooks",
    "LiveSession",
    "PLUGIN_GROUPS",
    "Plugins",
    "SessionOptions",
    "TaskResult",
    "TranscriptError",
    "agents_md",
    "after_restore",
    "breakdown",
    "build_system_prompt",
    "check_workspace",
    "close_open_tool_calls",
    "compact_session",
    "create_agent",
    "discover_commands",
    "end_session",
    "find_session",
    "last_stop",
    "list_sessions",
    "load_dotenv_files",
    "load_plugins",
    "loaded_instruction_files",
    "new_session_id",
    "sessions_dir",
    "open_session",
    "resume_path",
    "resumed_options",
    "rewind_conversation",
    "start_notes",
    "status",
    "task_text",
]


def __getattr__(name: str) -> Any:
    try:
        module, attr = _WHERE[name]
    except KeyError:
        raise AttributeError(f"module 'core.agent' has no attribute {name!r}") from None
    return getattr(importlib.import_module(module), attr)
