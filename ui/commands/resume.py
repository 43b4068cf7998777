"""`/resume`: pick a saved session of this folder with one key — answered ones first, newest
first among them; one-line sessions whose only message got no answer go last."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rich.text import Text

from core.agent import list_sessions
from ui.views import PICK_KEYS, pick_one

if TYPE_CHECKING:
    from core.agent import Agent, SessionInfo, SessionOptions
    from ui.terminal import LazyConsole
    from ui.words import Strings


class Repl(Protocol):
    s: Strings
    console: LazyConsole
    opts: SessionOptions
    home: Path

    @property
    def agent(self) -> Agent: ...

    def say(self, line: str, style: str = "") -> None: ...

    def new_session(self, workspace: Path | None = None, resume: Path | None = None) -> None: ...

    def recap(self) -> None: ...


def most_useful_first(sessions: list[SessionInfo]) -> list[SessionInfo]:
    """Sessions with an answer first (newest first), then those that never got one."""
    return sorted(sessions, key=lambda s: (s.messages < 2, -s.modified))


def others(repl: Repl) -> tuple[list[SessionInfo], bool]:
    """This folder's other saved sessions, and whether the open one is saved here too."""
    saved = [s for s in list_sessions(repl.home, repl.agent.tool_context.workspace) if s.messages]
    rest = [s for s in saved if s.session_id != repl.opts.session_id]
    return most_useful_first(rest), len(rest) < len(saved)


def show(repl: Repl, sessions: list[SessionInfo]) -> None:
    for key, info in zip(PICK_KEYS, sessions, strict=False):
        when = time.strftime("%m-%d %H:%M", time.localtime(info.modified))
        repl.console.print(
            Text(f"  [{key}] {when}  {info.first_task[:60]}  ", style="bold")
            + Text(repl.s.tn("({n} message)", "({n} messages)", info.messages, n=info.messages))
            + Text(f" {info.session_id}", style="dim")
        )


def cmd_resume(repl: Repl, arg: str) -> None:
    sessions, open_saved = others(repl)
    if not sessions:
        repl.say(
            repl.s.t("no other saved session in this folder: this one is the only one")
            if open_saved
            else repl.s.t("no saved session in this folder")
        )
        return
    picked = next((s for s in sessions if s.session_id == arg), None) if arg else None
    if arg and picked is None and arg.isdigit() and 1 <= int(arg) <= len(sessions):
        picked = sessions[int(arg) - 1]
    if arg and picked is None:
        repl.say(repl.s.t("no session {n}", n=arg))
        return
    if picked is None:
        shown = sessions[: len(PICK_KEYS)]
        show(repl, shown)
        if len(sessions) > len(shown):
            more = len(sessions) - len(shown)
            repl.say(repl.s.t("… {n} more: /resume ID", n=more), style="dim")
        number = pick_one(repl.s, repl.s.t("Resume which session?"), len(shown), repl.say)
        if number is None:
            return
        picked = shown[number - 1]
    repl.new_session(resume=picked.path)
    repl.recap()
