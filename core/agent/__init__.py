"""The agent shell: the loop, events, session assembly, transcript, prompts and instructions."""

from core.agent.accounting import BudgetHooks, LedgerHooks
from core.agent.compact import compact_session
from core.agent.context_report import breakdown, status
from core.agent.events import AgentHooks, HookList, TaskResult
from core.agent.instructions import loaded_instruction_files
from core.agent.live import end_session, resume_path, start_notes
from core.agent.loop import INTERRUPTED, Agent
from core.agent.options import SessionOptions, check_workspace, new_session_id
from core.agent.prompts import build_system_prompt
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
    "BudgetHooks",
    "Agent",
    "AgentHooks",
    "HookList",
    "INTERRUPTED",
    "LedgerHooks",
    "LiveSession",
    "SessionOptions",
    "TaskResult",
    "TranscriptError",
    "breakdown",
    "build_system_prompt",
    "check_workspace",
    "close_open_tool_calls",
    "compact_session",
    "create_agent",
    "end_session",
    "find_session",
    "last_stop",
    "list_sessions",
    "load_dotenv_files",
    "loaded_instruction_files",
    "new_session_id",
    "open_session",
    "resume_path",
    "resumed_options",
    "start_notes",
    "status",
    "task_text",
]
