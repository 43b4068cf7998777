"""`/init`: the model drafts AGENTS.md (code map, memory, the files it reads), the diff is
shown, and the file is written if approved."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from core.agent import document_from, init_request
from my_agent.capped import DOCUMENT, read_capped_text
from ui.views import diff_lines, yes_no

if TYPE_CHECKING:
    from ui.commands.api import ReplApi

STYLES = {"+": "green", "-": "red", "@": "cyan"}


def cmd_init(repl: ReplApi, arg: str) -> None:
    """The model writes AGENTS.md from the code map, memory and the files it chooses to read
    (read-only: the task runs in plan mode); the diff is shown and written only on yes."""
    from ui.commands.plan import apply_mode

    target = repl.agent.tool_context.workspace / "AGENTS.md"
    try:
        before = read_capped_text(target, DOCUMENT, "replace") if target.exists() else None
    except OSError as exc:
        repl.say(repl.s.line(str(exc)))
        return
    repl.renderer.spin(repl.s.t("drafting AGENTS.md…"))
    try:
        task = init_request(repl.session.code_map, repl.session.memory_hooks.store, before)
    finally:
        repl.renderer.stop_live()
    planning, repl.plan = repl.plan, True  # nothing is written while the model looks around
    try:
        result = repl.execute_task(task, "/init")
    finally:
        repl.plan = planning
        apply_mode(repl)
    after = document_from(result.text) if result is not None and result.stop == "done" else ""
    if not after:
        repl.say(repl.s.t("AGENTS.md left as it was: the model wrote no file"), style="yellow")
        return
    if after == before:
        repl.say(repl.s.t("AGENTS.md is already up to date"))
        return
    for line in diff_lines(before, after, "AGENTS.md"):
        repl.console.print(Text(line, style=STYLES.get(line[:1], "dim")), soft_wrap=True)
    if not yes_no(repl.s, repl.s.t("Write AGENTS.md?"), repl.say):
        repl.say(repl.s.t("AGENTS.md left as it was"))
        return
    target.write_text(after, encoding="utf-8")
    repl.say(repl.s.t("wrote {path}", path=target))
