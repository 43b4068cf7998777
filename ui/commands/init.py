"""`/init`: draft AGENTS.md from the code map and memory, show the diff, write it if approved."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from core.agent import agents_md
from ui.views import diff_lines, yes_no

if TYPE_CHECKING:
    from ui.commands.api import ReplApi

STYLES = {"+": "green", "-": "red", "@": "cyan"}


def cmd_init(repl: ReplApi, arg: str) -> None:
    target = repl.agent.tool_context.workspace / "AGENTS.md"
    before = target.read_text(encoding="utf-8") if target.is_file() else None
    repl.renderer.spin(repl.s.t("drafting AGENTS.md…"))
    try:
        after = agents_md(repl.session.code_map, repl.session.memory_hooks.store, before)
    finally:
        repl.renderer.stop_live()
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
