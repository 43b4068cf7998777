"""Saved sessions outside the REPL's /resume: `--resume` without an id lists them, and the
line at exit says how to come back to this one."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from core.agent import list_sessions

if TYPE_CHECKING:
    from core.agent import LiveSession
from ui.words import Strings


def session_rows(home: Path, workspace: Path, limit: int = 15) -> list[str]:
    """This folder's sessions, newest first: `when  first task  (messages) id`."""
    rows = []
    for info in [s for s in list_sessions(home, workspace) if s.messages][:limit]:
        when = time.strftime("%m-%d %H:%M", time.localtime(info.modified))
        rows.append(f"{when}  {info.first_task[:50]}  ({info.messages}) {info.session_id}")
    return rows


def print_sessions(home: Path, workspace: Path, s: Strings) -> int:
    """`unicum --resume -p …` (no id): the list and how to resume one; exit status 0."""
    rows = session_rows(home, workspace.expanduser().resolve())
    if not rows:
        print(s.t("no saved session in this folder"))
        return 0
    for row in rows:
        print(row)
    print(s.t("resume one with: unicum --resume ID (in the REPL: /resume)"))
    return 0


def goodbye(live: LiveSession | None, s: Strings) -> str:
    """ "bye", and how to resume when the session holds a conversation."""
    if live is None or not live.agent.history:
        return s.t("bye")
    return s.t(
        "bye · resume this session with: unicum --resume {id}",
        id=live.agent.tool_context.session_id,
    )
