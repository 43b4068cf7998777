"""Hooks the user configures, in Claude Code's settings schema: shell commands run on agent
events (`PreToolUse`, `PostToolUse`, `UserPromptSubmit`, `Stop`, `SessionStart`,
`Notification`), each given the event as JSON on stdin.

Tool events carry Claude Code's tool names and argument shapes (`tools/claude_code.py`), with
Unicum's own beside them. Exit code 2 blocks (stderr is the reason); exit 0 may print JSON
(`decision`, `reason`, `continue`, `systemMessage`, `hookSpecificOutput.permissionDecision`
allow / deny / ask, `updatedInput`, `additionalContext`). A Stop hook that blocks sends the
model back to work with its reason (`stop_hook_active` is then true, capped in the loop). A
hook that fails or times out is one warning and the session goes on."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from core.agent.events import AgentHooks, TaskResult, ToolVerdict
from core.agent.extensions.settings import read_settings
from my_agent.errors import UnicumError
from my_agent.messages import ToolCall
from tools.base import ToolOutput
from tools.claude_code import (
    CLAUDE_MODES,
    claude_input,
    claude_name,
    claude_response,
    names_of,
    unicum_input,
)

EVENTS = (
    "PreToolUse",
    "PostToolUse",
    "UserPromptSubmit",
    "Stop",
    "SessionStart",
    "SessionEnd",
    "Notification",
)
DEFAULT_TIMEOUT = 600.0  # seconds, as Claude Code's hooks reference says (a command hook)
SHORTER_TIMEOUTS = {"UserPromptSubmit": 30.0}  # an event that holds the prompt up


class PromptBlocked(UnicumError):
    """A UserPromptSubmit hook refused the prompt (the message says why)."""


@dataclass(frozen=True)
class HookCommand:
    event: str
    matcher: str  # "" or "*" matches every tool; otherwise a regex over the tool name
    command: str
    timeout: float
    source: Path

    def matches(self, tool: str, args: dict | None = None) -> bool:
        """Claude Code's rule: letters, digits, `_`, `-`, spaces, `,` and `|` only: exact
        names (`Edit|Write`, `Edit, Write`); anything else: a regex found anywhere in the name
        (`^Notebook`, `mcp__memory__.*`). Claude Code's name or Unicum's."""
        return matched(self.matcher, names_of(tool, args))


MATCHED_FIELDS = {
    "SessionStart": "source",
    "SessionEnd": "reason",
    "Notification": "notification_type",
}
EXACT_MATCHER = re.compile(r"[A-Za-z0-9_\-, |]*")


def matched(matcher: str, names: tuple[str, ...]) -> bool:
    if matcher in ("", "*"):
        return True
    if EXACT_MATCHER.fullmatch(matcher):
        wanted = {part.strip() for part in re.split(r"[|,]", matcher)}
        return any(n in wanted for n in names)
    try:
        return any(re.search(matcher, n) for n in names)
    except re.error:
        return matcher in names


@dataclass
class Outcome:
    """What the hooks of one event said, together."""

    block: str | None = None
    approve: bool = False
    ask: str | None = None  # `permissionDecision: "ask"`: the user is asked, with this reason
    updated: dict | None = None  # `updatedInput`
    halt: bool = False  # `"continue": false`: stop (a Stop hook's block does not apply then)
    context: list[str] = field(default_factory=list)


def load_hooks(workspace: Path, home: Path, warn: Callable[[str], None]) -> list[HookCommand]:
    """Every command hook in the settings files, in file order; a broken entry is a warning."""
    found: list[HookCommand] = []
    files = read_settings(workspace, home, warn)
    off = {file.scope for file in files if file.data.get("disableAllHooks") is True}
    if "user" in off:
        return []  # Claude Code's switch: no hook runs
    for file in files if not off else [f for f in files if f.scope == "user"]:
        # a project's disableAllHooks turns off the project's hooks, never the user's
        try:
            found += _hooks_of(file.data.get("hooks") or {}, file.path, warn)
        except (AttributeError, TypeError, ValueError) as exc:
            warn(f"hooks in {file.path} skipped: {exc}")
    return found


def _hooks_of(table: dict, path: Path, warn: Callable[[str], None]) -> list[HookCommand]:
    found = []
    for event, groups in table.items():
        if event not in EVENTS:
            warn(f"hooks in {path}: unknown event {event!r} skipped")
            continue
        for group in groups:
            for hook in group.get("hooks") or []:
                if hook.get("type", "command") != "command" or not hook.get("command"):
                    continue
                default = SHORTER_TIMEOUTS.get(event, DEFAULT_TIMEOUT)
                timeout = float(hook.get("timeout") or default)
                matcher = str(group.get("matcher") or "")
                found.append(HookCommand(event, matcher, str(hook["command"]), timeout, path))
    return found


class UserHooks(AgentHooks):
    """Runs the configured hook commands on the agent's events."""

    def __init__(
        self,
        hooks: list[HookCommand],
        workspace: Path,
        session_id: str,
        warn: Callable[[str], None],
        transcript_path: Path | None = None,
        mode: Callable[[], str] = lambda: "ask",
    ) -> None:
        self.hooks = hooks
        self.workspace = workspace
        self.session_id = session_id
        self.warn = warn
        self.transcript_path = transcript_path
        self.mode = mode  # the session's permission mode now (Shift-Tab changes it)
        self.pending: list[str] = []  # SessionStart context, sent with the first task

    def session_start(self, source: str) -> None:
        self.pending += self.run("SessionStart", {"source": source}).context

    def session_end(self, reason: str) -> None:
        """Claude Code's SessionEnd: `reason` is "clear" (/new), "prompt_input_exit" (/quit,
        Ctrl-D) or "other" (a closed terminal, a `kill`, the end of `-p`). It cannot block."""
        self.run("SessionEnd", {"reason": reason})

    def prompt_context(self, task: str) -> str:
        outcome = self.run("UserPromptSubmit", {"prompt": task})
        if outcome.block is not None:
            raise PromptBlocked(f"prompt blocked by a UserPromptSubmit hook: {outcome.block}")
        context, self.pending = [*self.pending, *outcome.context], []
        return "\n\n".join(context)

    def check_tool(self, call: ToolCall) -> ToolVerdict | None:
        outcome = self.run("PreToolUse", self._tool_fields(call), call)
        updated = None
        if outcome.updated is not None:
            updated = unicum_input(call.name, call.arguments, outcome.updated, self.workspace)
        if outcome.block is not None:
            return ToolVerdict("block", outcome.block)
        if outcome.ask is not None:
            return ToolVerdict("ask", outcome.ask, updated)
        if outcome.approve or updated is not None:
            return ToolVerdict("approve" if outcome.approve else "", "", updated)
        return None

    def on_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        response = claude_response(call.name, call.arguments, output, self.workspace)
        fields = {**self._tool_fields(call), "tool_response": response}
        outcome = self.run("PostToolUse", fields, call)
        notes = ([outcome.block] if outcome.block else []) + outcome.context
        if notes:  # the model reads it with the result (Claude Code feeds it back too)
            output.content += "\n[PostToolUse hook] " + "\n".join(notes)

    def _tool_fields(self, call: ToolCall) -> dict:
        """Claude Code's name and input shape; Unicum's own beside them."""
        return {
            "tool_name": claude_name(call.name, call.arguments),
            "tool_input": claude_input(call.name, call.arguments, self.workspace),
            "tool_use_id": call.id,
            "unicum_tool_name": call.name,
            "unicum_tool_input": call.arguments,
        }

    def stop_check(self, result: TaskResult, active: bool) -> str | None:
        """The model answered: a Stop hook that blocks sends it back with its reason."""
        outcome = self.run("Stop", {"stop_hook_active": active, "stop_reason": result.stop})
        return None if outcome.halt else outcome.block

    def on_task_end(self, result: TaskResult) -> None:
        if result.stop != "done":  # "done" went through stop_check; any other end is heard
            self.run("Stop", {"stop_hook_active": False, "stop_reason": result.stop})

    def notify(self, message: str, kind: str = "") -> None:
        """`kind`: Claude Code's `notification_type` (`permission_prompt`, `idle_prompt`)."""
        self.run("Notification", {"message": message, "notification_type": kind})

    # --- running ---------------------------------------------------------------------------
    def run(self, event: str, fields: dict, call: ToolCall | None = None) -> Outcome:
        outcome = Outcome()
        for hook in self.hooks:
            if hook.event != event:
                continue
            if call is not None:
                hit = hook.matches(call.name, call.arguments)
            else:  # SessionStart matches how the session started, Notification its type
                field = MATCHED_FIELDS.get(event)
                hit = field is None or matched(hook.matcher, (str(fields.get(field, "")),))
            if hit:
                self._one(hook, {**self._common(event), **fields}, outcome)
                if outcome.block is not None:
                    break
        return outcome

    def _common(self, event: str) -> dict:
        return {
            "session_id": self.session_id,
            "transcript_path": str(self.transcript_path or ""),
            "cwd": str(self.workspace),
            "permission_mode": CLAUDE_MODES.get(self.mode(), "default"),
            "hook_event_name": event,
        }

    def _one(self, hook: HookCommand, payload: dict, outcome: Outcome) -> None:
        env = {**os.environ, "CLAUDE_PROJECT_DIR": str(self.workspace)}
        env["UNICUM_PROJECT_DIR"] = str(self.workspace)
        import subprocess  # not before the prompt: only when a hook runs

        try:
            proc = subprocess.run(
                hook.command,
                shell=True,
                input=json.dumps(payload, ensure_ascii=False),
                capture_output=True,
                text=True,
                timeout=hook.timeout,
                cwd=self.workspace,
                env=env,
            )
        except subprocess.TimeoutExpired:
            self.warn(f"{hook.event} hook `{hook.command}` timed out after {hook.timeout:g}s")
            return
        except OSError as exc:
            self.warn(f"{hook.event} hook `{hook.command}` failed: {exc}")
            return
        if proc.returncode == 2:
            outcome.block = proc.stderr.strip() or "blocked by a hook"
        elif proc.returncode != 0:
            why = (proc.stderr.strip().splitlines() or [""])[-1]
            self.warn(f"{hook.event} hook `{hook.command}` failed (exit {proc.returncode}) {why}")
        else:
            message = _read_stdout(hook.event, proc.stdout, outcome)
            if message:
                self.warn(f"{hook.event} hook: {message}")  # systemMessage: for the user


def _read_stdout(event: str, stdout: str, outcome: Outcome) -> str:
    """Exit 0: JSON decides; plain text is context for the prompt events (as in Claude Code).
    Returns the hook's `systemMessage` for the user ("" when none)."""
    text = stdout.strip()
    try:
        data = json.loads(text) if text.startswith("{") else None
    except ValueError:
        data = None
    if not isinstance(data, dict):
        if text and event in ("UserPromptSubmit", "SessionStart"):
            outcome.context.append(text)
        return ""
    specific = data.get("hookSpecificOutput") or {}
    if not isinstance(specific, dict):
        specific = {}
    _decide(data, specific, outcome)
    if specific.get("additionalContext"):
        outcome.context.append(str(specific["additionalContext"]))
    if data.get("continue") is False:
        outcome.halt = True
        if outcome.block is None:
            outcome.block = str(data.get("stopReason") or "stopped by a hook")
    return str(data.get("systemMessage") or "")


def _decide(data: dict, specific: dict, outcome: Outcome) -> None:
    """`permissionDecision` (or the older `decision`), its reason and `updatedInput`."""
    decision = specific.get("permissionDecision") or data.get("decision")
    reason = str(specific.get("permissionDecisionReason") or data.get("reason") or "")
    if isinstance(specific.get("updatedInput"), dict):
        outcome.updated = {**(outcome.updated or {}), **specific["updatedInput"]}
    if decision in ("block", "deny"):
        outcome.block = reason or "blocked by a hook"
    elif decision == "ask":
        outcome.ask = outcome.ask or reason or "a hook asks"
    elif decision in ("approve", "allow"):
        outcome.approve = True
