"""A typed line that is not a slash command: `!command`, or a task (its `@path` files attached)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ui.repl.bang import run_shell
from ui.repl.mentions import attach_mentions

if TYPE_CHECKING:
    from ui.commands import ReplApi


def run_line(repl: ReplApi, line: str) -> bool:
    """Run the line; False, as for a slash command that does not quit."""
    if line.startswith("!"):
        run_shell(repl, line[1:].strip())
        return False
    typed = line
    if "@" in line:
        line = attach_mentions(line, repl.agent.tool_context, repl.say, repl.s.t)
    repl.run_task(line, typed)
    return False
