"""`/undo`, `/rewind` and `/diff`: the session's snapshots from the REPL (tools/snapshots.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from core.agent import after_restore, rewind_conversation
from my_agent.messages import user_text
from tools.snapshots import Restored, get_snapshots, undo_last

if TYPE_CHECKING:
    from core.agent import Agent, LiveSession
    from ui.i18n import Strings
    from ui.screen import LazyConsole


class Repl(Protocol):
    """What these commands use of the REPL."""

    s: Strings
    console: LazyConsole

    @property
    def session(self) -> LiveSession: ...

    @property
    def agent(self) -> Agent: ...

    def say(self, line: str, style: str = "") -> None: ...

    def ask(self, message: str) -> str: ...


UNDO_NOTE = (
    "[The user ran /undo: {what}; your last edit of it is reverted. Read it again "
    "before relying on its content.]"
)
REWIND_NOTE = "[The user ran /rewind: {what}. Read files again before relying on their content.]"
WHAT = {"f": "files", "c": "chat", "b": "both"}
MAX_PATCH_LINES = 400


def _tell_model(repl: Repl, note: str) -> None:
    """The model must not go on believing its edits are still there (sent with the next task)."""
    repl.agent.history.append(user_text(note))
    repl.session.save()


def _after_restore(repl: Repl, restored: Restored) -> None:
    warning = after_restore(repl.agent, restored)
    if warning:
        repl.say(f"warning: {warning}", style="yellow")


def cmd_undo(repl: Repl, arg: str) -> None:
    """`/undo [N] [force]`: take back the last N steps that changed files (default 1)."""
    words = arg.lower().split()
    force = any(w in ("force", "--force", "!") for w in words)  # over later changes
    count = next((int(w) for w in words if w.isdigit()), 1)
    done: list[Restored] = []
    for _ in range(max(1, count)):
        restored = undo_last(repl.agent.tool_context, force=force)
        if restored is None:
            if not done:
                repl.say(repl.s.t("undo_none"))
            break
        repl.say(restored.text)
        if not restored.done:
            break
        _after_restore(repl, restored)
        done.append(restored)
    if not done:
        return
    _tell_model(repl, UNDO_NOTE.format(what="; ".join(r.text for r in done)))


def cmd_rewind(repl: Repl, arg: str) -> None:
    """`/rewind [N] [files|chat|both]`: back to before turn N of this session."""
    snaps = get_snapshots(repl.agent.tool_context)
    turns = dict(snaps.turns())
    turns.update({t: text for t, text in snaps.tasks.items()})
    if not turns:
        repl.say(repl.s.t("rewind_none"))
        return
    words = arg.split()
    pick = next((w for w in words if w.isdigit()), "")
    if not pick:
        for turn in sorted(turns):
            repl.say(f"{turn:>3}. {' '.join(turns[turn].split())[:70]}")
        pick = repl.ask(repl.s.t("rewind_pick"))
    if not pick.isdigit() or int(pick) not in turns:
        repl.say(repl.s.t("resume_bad", n=pick))
        return
    what = next((w[0] for w in words if w[:1] in WHAT and not w.isdigit()), "")
    what = what or (repl.ask(repl.s.t("rewind_what")) or "b")[:1].lower()
    if what not in WHAT:
        return
    turn, lines = int(pick), []
    if what in "fb":
        restored = snaps.rewind(turn)
        repl.say(restored.text)
        if restored.done:
            _after_restore(repl, restored)
            lines.append(restored.text)
    if what in "cb":
        if rewind_conversation(repl.agent, turn):
            repl.session.save()
            repl.say(repl.s.t("rewind_chat", n=turn))
        else:
            repl.say(repl.s.t("rewind_chat_gone", n=turn))
    if lines and what == "f":  # with the conversation rewound too, the model's view holds
        _tell_model(repl, REWIND_NOTE.format(what="; ".join(lines)))


def cmd_diff(repl: Repl, arg: str) -> None:
    """`/diff`: every file the session changed (snapshot at its first step → now), with the patch."""
    changes, patch = get_snapshots(repl.agent.tool_context).diff()
    if not changes:
        repl.say(patch or repl.s.t("diff_none"))
        return
    for change in changes:
        repl.say(f"{change.status} {change.path}")
    if arg == "stat":
        return
    from rich.text import Text

    lines = patch.splitlines()
    for line in lines[:MAX_PATCH_LINES]:
        style = "green" if line.startswith("+") else "red" if line.startswith("-") else ""
        repl.console.print(Text(line, style="bold" if line.startswith("diff ") else style))
    if len(lines) > MAX_PATCH_LINES:
        repl.say(repl.s.t("diff_more", n=len(lines) - MAX_PATCH_LINES))
