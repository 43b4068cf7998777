"""The agent shell: the loop, events, session assembly, transcript, prompts and instructions."""

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
    task_text,
)

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
    "open_session",
    "resume_path",
    "resumed_options",
    "rewind_conversation",
    "start_notes",
    "status",
    "task_text",
]
