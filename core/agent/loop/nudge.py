"""A small model's answer before anything changed: sent back to act, not taken as the end.

Small models often answer with the fix written out ("change line 3 to…"), an empty reply, or a
description of an edit whose call failed, and nothing in the project changed. For the lean tool
set's model (`Nudge.enabled`) such an answer gets a note naming the next step instead of ending
the task: an empty reply, and an answer without a change that shows code or follows a write
that failed. A plain answer after reading (a question answered) stands. At most `MAX_NUDGES`
per task, and an answer given again right after a note (no tool call between) stands: a task
that asked no change costs one request more, never a loop. A change is a write tool that
succeeded, or a command that writes a file (the shell module's `written_paths`)."""

from __future__ import annotations

from dataclasses import dataclass

from my_agent.messages import ToolCall
from my_agent.shell.words import written_paths
from tools.base import ToolOutput

WRITERS = frozenset({"edit_file", "write_file"})  # the tools whose success is a change
MAX_NUDGES = 2
NUDGES = {
    "empty": (
        "[unicum: your reply was empty. Go on with the task using the tools; when it is done, "
        "say in one sentence what you changed.]"
    ),
    "code": (
        "[unicum: you answered with code but used no tool, so nothing in the project changed. "
        "If the task asks for a change, make it now with edit_file (or write_file) and run the "
        "tests; if it does not, give your answer again.]"
    ),
    "unchanged": (
        "[unicum: nothing in the project has changed yet: no edit_file or write_file succeeded "
        "in this task. If the task asks for a change, make it now yourself: read_file the file, "
        "then edit_file with old_string copied exactly from it, then run the tests. If the task "
        "asks no change, give your answer again.]"
    ),
}


def changes(call: ToolCall, output: ToolOutput) -> bool:
    """The call changed a file in the project (as far as its tool and command say)."""
    if output.is_error:
        return False
    if call.name in WRITERS:
        return True
    command = call.arguments.get("command") if call.name == "terminal" else None
    return isinstance(command, str) and bool(written_paths(command))


@dataclass
class Nudge:
    enabled: bool = False
    changed: bool = False  # a change was made in this task
    tried: bool = False  # a write tool was called in this task (it may have failed)
    given: int = 0  # notes sent in this task
    called: bool = True  # a tool was called since the last note (or no note yet)

    def start_task(self) -> None:
        self.changed, self.tried, self.given, self.called = False, False, 0, True

    def saw(self, call: ToolCall, output: ToolOutput) -> None:
        self.called, self.tried = True, self.tried or call.name in WRITERS
        self.changed = self.changed or changes(call, output)

    def note(self, text: str, tool_calls: int) -> str | None:
        """The note for an answer `text` after `tool_calls` calls in the task, or None: the
        answer stands."""
        if not self.enabled or self.given >= MAX_NUDGES or not self.called:
            return None
        kind = _kind(text, tool_calls, self.changed, self.tried)
        if kind is None:
            return None
        self.given, self.called = self.given + 1, False
        return NUDGES[kind]


def _kind(text: str, tool_calls: int, changed: bool, tried: bool) -> str | None:
    if not text.strip():
        return "empty"
    if changed:
        return None
    if "```" in text:
        return "unchanged" if tool_calls else "code"
    return "unchanged" if tried else None
