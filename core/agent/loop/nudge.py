"""A small model's answer before anything changed: sent back to act, not taken as the end.

Small models often answer with the fix written out ("change line 3 to…"), claim a change they
never made ("I changed squares.py; the tests pass" with no tool called), reply with nothing, or
describe an edit whose call failed. For the lean tool set's model (`Nudge.enabled`) such an
answer gets a note naming the next step instead of ending the task: an empty reply, an answer
before any tool was used that shows code or names a file of the project (it speaks of files
it has not looked at), an answer without a change that shows code, and one after a write that
failed (its note offers no way out but the change: the model meant to make one). A plain answer ("hi", a question answered after reading) stands. At most `MAX_NUDGES`
per task, and an answer given again right after a note (no tool call between) stands: a task
that asked no change costs one request more, never a loop. A change is a write tool that
succeeded, or a command that writes a file (the shell module's `written_paths`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from my_agent.messages import ToolCall
from my_agent.shell.words import written_paths
from my_agent.walk import walk
from tools.base import ToolOutput

WRITERS = frozenset({"edit_file", "write_file"})  # the tools whose success is a change
MAX_NUDGES = 2
MAX_NAMES = 500  # project files whose names an answer is checked for
NUDGES = {
    "empty": (
        "[unicum: your reply was empty. Go on with the task using the tools; when it is done, "
        "say in one sentence what you changed.]"
    ),
    "no tool": (
        "[unicum: you used no tool, so nothing in the project changed and nothing was run. If "
        "the task asks for a change, make it now with the tools (read_file, then edit_file) "
        "and run the tests; if it does not, give your answer again.]"
    ),
    "unchanged": (
        "[unicum: nothing in the project has changed yet: no edit_file or write_file succeeded "
        "in this task. If the task asks for a change, make it now yourself: read_file the file, "
        "then edit_file with old_string copied exactly from it, then run the tests. If the task "
        "asks no change, give your answer again.]"
    ),
    "failed write": (  # it meant to change a file: no way out but the change (or the cap)
        "[unicum: nothing in the project has changed yet: your edit did not apply. Writing the "
        "change in your answer does not make it. Call read_file on the file you want to change, "
        "then edit_file with old_string copied exactly from what it shows (without the line "
        "numbers), then run the tests.]"
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
    workspace: Path | None = None  # whose file names an answer may speak of
    changed: bool = False  # a change was made in this task
    tried: bool = False  # a write tool was called in this task (it may have failed)
    given: int = 0  # notes sent in this task
    called: bool = True  # a tool was called since the last note (or no note yet)
    names: frozenset[str] | None = field(default=None, repr=False)  # read when first needed

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
        if kind == "no tool" and "```" not in text and not self._names_a_file(text):
            kind = None
        if kind is None:
            return None
        self.given, self.called = self.given + 1, False
        return NUDGES[kind]

    def _names_a_file(self, text: str) -> bool:
        if self.names is None:
            found = islice(walk(self.workspace), MAX_NAMES) if self.workspace else ()
            names = (Path(e.rel).name for e in found)
            self.names = frozenset(n for n in names if "." in n.strip(".") and len(n) >= 4)
        return any(name in text for name in self.names)


def _kind(text: str, tool_calls: int, changed: bool, tried: bool) -> str | None:
    if not text.strip():
        return "empty"
    if changed:
        return None
    if not tool_calls:
        return "no tool"
    if tried:
        return "failed write"
    return "unchanged" if "```" in text else None
