"""The session's safety net: the OS sandbox for commands (and what of the project's `.env`
reaches them) and the workspace snapshots behind `/undo`, `/rewind` and `/diff`
(tools/sandbox.py, tools/snapshots.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from core.agent.events import AgentHooks, TaskResult
from core.agent.extensions.settings import read_settings
from core.agent.options import SessionOptions
from core.agent.records.transcript import close_open_tool_calls
from core.agent.session.dotenv import project_command_env
from core.memory import MemoryStore, unmark_modified
from my_agent.errors import ConfigError
from my_agent.home import read_user_config
from my_agent.messages import Message
from my_agent.trust import is_trusted
from tools.base import ToolContext
from tools.net_rules import NetworkRules
from tools.restored import Restored
from tools.sandbox import Sandbox, SandboxPolicy
from tools.snapshots import Snapshots, get_snapshots

if TYPE_CHECKING:
    from core.agent.loop.agent import Agent

REWOUND = "[rewound by the user before this call finished]"

UNSANDBOXED = (
    "sandbox unavailable ({why}): commands run unsandboxed and the permission prompts guard "
    "them (see --sandbox)"
)


class SnapshotHooks(AgentHooks):
    """Numbers the turns the snapshots belong to (and where each began in the conversation),
    and reports a skipped snapshot once."""

    def __init__(self, snapshots: Snapshots, warn: list[str]) -> None:
        self.snapshots = snapshots
        self.warn = warn
        self.history: Callable[[], list[Message]] = list  # set once the agent exists

    def on_task_start(self, task: str) -> None:
        turn = self.snapshots.begin_turn(task)
        self.snapshots.marks[turn] = len(self.history())

    def before_request(self, turn: int) -> None:
        """The task's message is in the history now: what it says (more than was typed, in
        plan mode or with files attached) is how /rewind finds it again."""
        now, history = self.snapshots.turn, self.history()
        mark = self.snapshots.marks.get(now)
        if now not in self.snapshots.sent and mark is not None and mark < len(history):
            self.snapshots.sent[now] = history[mark].text

    def on_task_end(self, result: TaskResult) -> None:
        warning = self.snapshots.take_warning()
        if warning:
            self.warn.append(warning)


def attach_safety(ctx: ToolContext, opts: SessionOptions, notices: list[str]) -> SnapshotHooks:
    """Sandbox (probed once, here) and snapshots into the tool context; the hooks to add."""
    try:
        policy = SandboxPolicy.from_settings(read_user_config(), opts.sandbox, opts.sandbox_network)
        policy = replace(policy, net=policy.net.joined(claude_domains(ctx.workspace, ctx.home)))
    except ValueError as exc:
        raise ConfigError(str(exc)) from exc
    sandbox = Sandbox(policy, ctx.workspace, ctx.home, opts.add_dirs)
    if sandbox.problem:
        notices.append(UNSANDBOXED.format(why=sandbox.problem))
    notices.extend(sandbox.notes)
    snapshots = Snapshots(ctx.workspace, ctx.home, ctx.session_id)
    trusted = opts.trusted or is_trusted(ctx.workspace, ctx.home)
    ctx.command_env = project_command_env(ctx.workspace, trusted)
    ctx.services.sandbox = sandbox
    ctx.services.snapshots = snapshots
    return SnapshotHooks(snapshots, notices)


def claude_domains(workspace: Path, home: Path) -> NetworkRules:
    """Claude Code's `sandbox.network.allowedDomains`/`deniedDomains` in the user's
    settings.json (a project's settings cannot widen its own sandbox)."""
    rules = NetworkRules()
    for file in read_settings(workspace, home, lambda _: None):
        sandbox = file.data.get("sandbox")
        network = sandbox.get("network") if isinstance(sandbox, dict) else None
        if file.scope == "user" and isinstance(network, dict):
            lists = {k: network[k] for k in ("allowedDomains", "deniedDomains") if k in network}
            rules = rules.joined(NetworkRules.parse(lists))
    return rules


def after_restore(agent: Agent, restored: Restored) -> str:
    """Files put back by `/undo` or `/rewind`: memory no longer calls them modified. Returns
    a warning when memory could not be updated, else ""."""
    store = agent.tool_context.services.memory
    if restored.paths and isinstance(store, MemoryStore):
        try:
            unmark_modified(store, restored.paths)
        except (OSError, ValueError) as exc:
            return f"memory not updated after the restore: {exc}"
    return ""


def rewind_conversation(agent: Agent, turn: int) -> bool:
    """Cut the conversation back to just before `turn`'s task; False when that point is not
    in it any more (compacted away, or a turn of an earlier process). What is left is a valid
    history: every tool call keeps its result (an unanswered last call gets one)."""
    snapshots = get_snapshots(agent.tool_context)
    task, cut = snapshots.sent.get(turn, snapshots.tasks.get(turn)), snapshots.marks.get(turn)
    history = agent.history
    if task is None:
        return False
    if cut is None or cut >= len(history) or not _is_task(history[cut], task):
        found = [i for i, m in enumerate(history) if _is_task(m, task)]
        if not found:
            return False
        cut = found[-1]
    del history[cut:]
    close_open_tool_calls(history, REWOUND)
    for later in [t for t in snapshots.tasks if t >= turn]:
        snapshots.tasks.pop(later)
        snapshots.marks.pop(later, None)
        snapshots.sent.pop(later, None)
    return True


def _is_task(message: Message, task: str) -> bool:
    return message.role == "user" and not message.tool_results and message.text == task


def added_dirs(folders: tuple[Path, ...]) -> set[str]:
    """`--add-dir`: each folder (and what is in it) read and written without asking."""
    approvals = set()
    for folder in folders:
        path = folder.expanduser().resolve()
        if not path.is_dir():
            raise ConfigError(f"--add-dir {folder}: not a folder")
        approvals.add(f"outside_write:{path}")
    return approvals
