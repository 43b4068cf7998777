"""The agent shell: the loop, events, session assembly, transcript, prompts and instructions.

The face loads a name's module when the name is first used (PEP 562), so the REPL draws its
prompt after importing only the hooks and options it needs, while the background thread that
opens the session loads the rest. The names and where they live are listed once, below."""

from __future__ import annotations

from typing import TYPE_CHECKING

from my_agent.lazy import lazy_face

if TYPE_CHECKING:  # the same names for type checkers (and the import-graph test)
    from core.agent.events import AgentHooks, HookList, TaskResult
    from core.agent.extensions.agent_defs import AgentDef, find_agents
    from core.agent.extensions.commands import CommandTools, CustomCommand, discover_commands
    from core.agent.extensions.gate import skipped_by_trust
    from core.agent.extensions.joined import remember_server, servers_to_ask
    from core.agent.extensions.plugins import GROUPS as PLUGIN_GROUPS
    from core.agent.extensions.plugins import Plugins, load_plugins
    from core.agent.extensions.rules import change_rule, rules_file, settings_default_mode
    from core.agent.extensions.settings import status_line_command
    from core.agent.loop.agent import INTERRUPTED, Agent
    from core.agent.loop.compact import compact_session
    from core.agent.loop.context_report import breakdown, status
    from core.agent.loop.text_calls import read_text_calls
    from core.agent.options import SessionOptions, check_workspace, new_session_id
    from core.agent.prompts.instructions import held_instruction_files, loaded_instruction_files
    from core.agent.prompts.system import build_system_prompt
    from core.agent.records.accounting import BudgetHooks, LedgerHooks
    from core.agent.records.transcript import (
        SessionInfo,
        TranscriptError,
        close_open_tool_calls,
        find_session,
        last_stop,
        list_sessions,
        sessions_dir,
        task_text,
    )
    from core.agent.session.assembly import LiveSession, create_agent, open_session, resumed_options
    from core.agent.session.dotenv import load_dotenv_files
    from core.agent.session.git_work import (
        auto_commit,
        commit_message,
        staged_repo,
        take_back_commit,
    )
    from core.agent.session.init_doc import document_from, init_request
    from core.agent.session.live import end_session, resume_path, start_notes
    from core.agent.session.safety import after_restore, rewind_conversation

_WHERE = {
    "Agent": "core.agent.loop.agent",
    "AgentDef": "core.agent.extensions.agent_defs",
    "AgentHooks": "core.agent.events",
    "BudgetHooks": "core.agent.records.accounting",
    "CommandTools": "core.agent.extensions.commands",
    "CustomCommand": "core.agent.extensions.commands",
    "HookList": "core.agent.events",
    "INTERRUPTED": "core.agent.loop.agent",
    "LedgerHooks": "core.agent.records.accounting",
    "LiveSession": "core.agent.session.assembly",
    "PLUGIN_GROUPS": "core.agent.extensions.plugins:GROUPS",
    "Plugins": "core.agent.extensions.plugins",
    "SessionOptions": "core.agent.options",
    "TaskResult": "core.agent.events",
    "TranscriptError": "core.agent.records.transcript",
    "after_restore": "core.agent.session.safety",
    "document_from": "core.agent.session.init_doc",
    "auto_commit": "core.agent.session.git_work",
    "commit_message": "core.agent.session.git_work",
    "staged_repo": "core.agent.session.git_work",
    "take_back_commit": "core.agent.session.git_work",
    "init_request": "core.agent.session.init_doc",
    "breakdown": "core.agent.loop.context_report",
    "build_system_prompt": "core.agent.prompts.system",
    "check_workspace": "core.agent.options",
    "close_open_tool_calls": "core.agent.records.transcript",
    "compact_session": "core.agent.loop.compact",
    "create_agent": "core.agent.session.assembly",
    "discover_commands": "core.agent.extensions.commands",
    "end_session": "core.agent.session.live",
    "find_agents": "core.agent.extensions.agent_defs",
    "find_session": "core.agent.records.transcript",
    "last_stop": "core.agent.records.transcript",
    "list_sessions": "core.agent.records.transcript",
    "SessionInfo": "core.agent.records.transcript",
    "sessions_dir": "core.agent.records.transcript",
    "load_dotenv_files": "core.agent.session.dotenv",
    "load_plugins": "core.agent.extensions.plugins",
    "skipped_by_trust": "core.agent.extensions.gate",
    "status_line_command": "core.agent.extensions.settings",
    "servers_to_ask": "core.agent.extensions.joined",
    "remember_server": "core.agent.extensions.joined",
    "settings_default_mode": "core.agent.extensions.rules",
    "change_rule": "core.agent.extensions.rules",
    "rules_file": "core.agent.extensions.rules",
    "loaded_instruction_files": "core.agent.prompts.instructions",
    "held_instruction_files": "core.agent.prompts.instructions",
    "new_session_id": "core.agent.options",
    "open_session": "core.agent.session.assembly",
    "resume_path": "core.agent.session.live",
    "resumed_options": "core.agent.session.assembly",
    "rewind_conversation": "core.agent.session.safety",
    "start_notes": "core.agent.session.live",
    "status": "core.agent.loop.context_report",
    "read_text_calls": "core.agent.loop.text_calls",
    "task_text": "core.agent.records.transcript",
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
    "document_from",
    "auto_commit",
    "commit_message",
    "staged_repo",
    "take_back_commit",
    "init_request",
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
    "SessionInfo",
    "load_dotenv_files",
    "load_plugins",
    "settings_default_mode",
    "change_rule",
    "rules_file",
    "skipped_by_trust",
    "status_line_command",
    "servers_to_ask",
    "remember_server",
    "loaded_instruction_files",
    "held_instruction_files",
    "new_session_id",
    "sessions_dir",
    "open_session",
    "resume_path",
    "resumed_options",
    "rewind_conversation",
    "start_notes",
    "status",
    "read_text_calls",
    "task_text",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
