"""`/undo`, `/rewind` and `/diff`: the session's snapshots from the REPL (tools/snapshots.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from core.agent import after_restore, rewind_conversation
from my_agent.messages import user_text
from tools.restored import Restored
from tools.snapshots import get_snapshots, undo_turn
from ui.views import PICK_KEYS, one_of, pick_one
from ui.words import N_

if TYPE_CHECKING:
    from core.agent import Agent, LiveSession
    from ui.terminal import LazyConsole
    from ui.words import Strings


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
    "[The user ran /undo: {what}. Those files are back as they were before; read them again "
    "before relying on their content.]"
)
REWIND_NOTE = "[The user ran /rewind: {what}. Read files again before relying on their content.]"
WHAT = {"f": "files", "c": "chat", "b": "both"}
RESTORE_CHOICES = {
    "b": N_("both (Enter)"),
    "f": N_("files only"),
    "c": N_("conversation only"),
}
MAX_PATCH_LINES = 400


def _tell_model(repl: Repl, note: str) -> None:
    """The model must not go on believing its edits are still there (sent with the next task)."""
    repl.agent.history.append(user_text(note))
    repl.session.save()


def _after_restore(repl: Repl, restored: Restored) -> None:
    warning = after_restore(repl.agent, restored)
    if warning:
        repl.say(f"warning: {warning}", style="yellow")


def _take_back_commit(repl: Repl, restored: Restored) -> None:
    """An undone turn's --auto-commit goes too (while it is the last commit)."""
    from core.agent import take_back_commit

    line = take_back_commit(repl.agent, restored.turn, restored.paths)
    if line:
        repl.say(repl.s.line(line), style="dim")


def _undo_words(arg: str) -> tuple[int, bool] | None:
    """(how many turns, force) from `/undo [N] [force]`; None for anything else."""
    count, force = 1, False
    for word in arg.lower().split():
        if word in ("force", "--force", "!"):  # over files changed since
            force = True
        elif word.isdigit() and int(word) > 0:
            count = int(word)
        else:
            return None
    return count, force


def _names(paths: list[str]) -> str:
    return ", ".join(paths[:5]) + (f", +{len(paths) - 5}" if len(paths) > 5 else "")


def undo_line(s: Strings, restored: Restored) -> str:
    """The user's line for one undo: the turn and its files, or why it was refused."""
    if restored.clash:
        return s.t(
            "not undone: {paths} changed after turn {n}; /undo force overwrites those changes",
            paths=_names(restored.clash),
            n=restored.turn,
        )
    if not restored.done:  # a snapshot failure (git missing or slow)
        return s.line(f"warning: {restored.text}")
    parts = []
    if restored.restored:
        n = len(restored.restored)
        paths = _names(restored.restored)
        parts.append(
            s.tn("{n} file restored ({paths})", "{n} files restored ({paths})", n, n=n, paths=paths)
        )
    if restored.removed:
        n = len(restored.removed)
        paths = _names(restored.removed)
        parts.append(
            s.tn(
                "{n} new file removed ({paths})",
                "{n} new files removed ({paths})",
                n,
                n=n,
                paths=paths,
            )
        )
    what = s.t("; ").join(parts) or s.t("no file changed")
    return s.t("Undid turn {n}: {what}", n=restored.turn, what=what)


def cmd_undo(repl: Repl, arg: str) -> None:
    """`/undo [N] [force]`: take back all file changes of the last N turns that made any."""
    words = _undo_words(arg)
    if words is None:
        repl.say(
            repl.s.t(
                "/undo: '{arg}' is not a number of turns (use /undo, /undo 2, /undo force)",
                arg=arg.strip(),
            ),
            style="red",
        )
        return
    count, force = words
    done: list[Restored] = []
    while len(done) < count:
        restored = undo_turn(repl.agent.tool_context, force=force)
        if restored is None:
            repl.say(
                repl.s.t("only {n} turn(s) had file changes; all of them are undone", n=len(done))
                if done
                else repl.s.t("nothing to undo: no turn of this session changed files")
            )
            break
        repl.say(undo_line(repl.s, restored), style="" if restored.done else "yellow")
        if not restored.done:
            break
        _after_restore(repl, restored)
        _take_back_commit(repl, restored)
        done.append(restored)
    if done:
        _tell_model(repl, UNDO_NOTE.format(what="; ".join(r.text for r in done)))


def _pick_turn(repl: Repl, turns: dict[int, str]) -> str:
    """One key among the last nine turns (an earlier one: `/rewind N`); "" to cancel."""
    recent = sorted(turns)[-len(PICK_KEYS) :]
    if len(turns) > len(recent):
        repl.say(repl.s.t("earlier turns: /rewind N"), style="dim")
    for key, turn in zip(PICK_KEYS, recent, strict=False):
        text = " ".join(turns[turn].split())[:70]
        repl.say(f"  [{key}] " + repl.s.t("turn {n}: {text}", n=turn, text=text))
    picked = pick_one(repl.s, repl.s.t("Rewind to before which turn?"), len(recent), repl.say)
    return str(recent[picked - 1]) if picked else ""


def cmd_rewind(repl: Repl, arg: str) -> None:
    """`/rewind [N] [files|chat|both]`: back to before turn N of this session."""
    snaps = get_snapshots(repl.agent.tool_context)
    turns = dict(snaps.turns())
    turns.update({t: text for t, text in snaps.tasks.items()})
    if not turns:
        repl.say(repl.s.t("no turn to rewind to yet"))
        return
    words = arg.split()
    pick = next((w for w in words if w.isdigit()), "") or _pick_turn(repl, turns)
    if not pick:
        return
    if not pick.isdigit() or int(pick) not in turns:
        repl.say(repl.s.t("no turn {n} to rewind to", n=pick))
        return
    what = next((w[0] for w in words if w[:1] in WHAT and not w.isdigit()), "")
    choices = {k: repl.s.t(words) for k, words in RESTORE_CHOICES.items()}
    what = what or one_of(repl.s, repl.s.t("Restore what?"), choices, repl.say, "b")
    if what not in WHAT:
        return
    turn, lines = int(pick), []
    if what in "fb":
        restored = snaps.rewind(turn)
        repl.say(repl.s.line(restored.text))
        if restored.done:
            _after_restore(repl, restored)
            lines.append(restored.text)
    if what in "cb":
        if rewind_conversation(repl.agent, turn):
            repl.session.save()
            repl.say(repl.s.t("conversation back to before turn {n}", n=turn))
        else:
            repl.say(
                repl.s.t(
                    "the conversation of turn {n} is no longer there (compacted or from an "
                    "earlier run); files only",
                    n=turn,
                )
            )
    if lines and what == "f":  # with the conversation rewound too, the model's view holds
        _tell_model(repl, REWIND_NOTE.format(what="; ".join(lines)))


def cmd_diff(repl: Repl, arg: str) -> None:
    """`/diff`: every file the session changed (snapshot at its first step → now), with the
    patch; then, in a git repository, the working tree against HEAD."""
    from ui.commands.git import show_git_diff

    _session_diff(repl, arg)
    show_git_diff(repl, arg == "stat")  # type: ignore[arg-type]


def _session_diff(repl: Repl, arg: str) -> None:
    changes, patch = get_snapshots(repl.agent.tool_context).diff()
    repl.say(repl.s.t("this session's changes"), style="bold")
    if not changes:
        repl.say(patch or repl.s.t("no file changed in this session"))
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
        repl.say(repl.s.t("… {n} more diff lines", n=len(lines) - MAX_PATCH_LINES))
