"""`/commit` (a message the model writes from the staged diff, approved with one key) and the
git half of `/diff` (the working tree against HEAD)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ui.terminal import styled

if TYPE_CHECKING:
    from ui.commands.api import ReplApi

MAX_PATCH_LINES = 400
STYLES = {"+": "green", "-": "red", "@": "cyan"}


def cmd_commit(repl: ReplApi, arg: str) -> None:
    """`/commit [HINT]`: commit what is staged with a message the model writes (HINT: what to
    stress); shown first, committed on `y`, edited on `e`."""
    from core.agent import commit_message, staged_repo
    from tools.git_repo import GitError
    from ui.views import read_key

    repo, diff = staged_repo(repl.agent.tool_context.workspace)
    if repo is None:
        repl.say(repl.s.t("/commit: this folder is not in a git repository"), style="red")
        return
    if not diff.strip():
        repl.say(repl.s.t("nothing staged to commit: stage changes first (e.g. !git add -A)"))
        return
    repl.renderer.spin(repl.s.t("writing the commit message…"))
    try:
        message = commit_message(repl.agent, diff, arg.strip())
    finally:
        repl.renderer.stop_live()
    for line in message.splitlines() or [""]:
        repl.say(f"  {line}", style="bold")
    question = repl.s.t("Commit with this message? [y] yes · [e] edit · [n] no ")
    answer = read_key(styled(question, "bold yellow"), ("y", "e", "n"))
    if answer == "e":
        message = repl.ask(repl.s.t("commit message: ")).strip() or ""
    if answer == "n" or not message:
        repl.say(repl.s.t("not committed"), style="dim")
        return
    try:
        short = repo.commit(message)
    except GitError as exc:
        repl.say(repl.s.t("not committed: {why}", why=str(exc)), style="red")
        return
    repl.say(repl.s.t("committed {id}: {subject}", id=short, subject=message.splitlines()[0]))


def show_git_diff(repl: ReplApi, stat_only: bool) -> None:
    """The working tree against HEAD (staged or not, and untracked files by name)."""
    from rich.text import Text

    from tools.git_repo import GitError, find_repo

    repo = find_repo(repl.agent.tool_context.workspace)
    if repo is None:
        return
    try:
        patch = repo.working_diff()
        untracked = [line[3:] for line in repo.status() if line.startswith("??")]
        branch = repo.branch()
    except GitError as exc:
        repl.say(repl.s.t("git: {why}", why=str(exc)), style="yellow")
        return
    files = [
        line.split(" b/", 1)[-1] for line in patch.splitlines() if line.startswith("diff --git")
    ]
    repl.say(repl.s.t("git: the working tree against HEAD ({branch})", branch=branch), style="bold")
    if not files and not untracked:
        repl.say(repl.s.t("no difference from HEAD"))
        return
    for path in files:
        repl.say(f"M {path}")
    for path in untracked:
        repl.say(f"? {path}")
    if stat_only:
        return
    lines = patch.splitlines()
    for line in lines[:MAX_PATCH_LINES]:
        style = "bold" if line.startswith("diff ") else STYLES.get(line[:1], "")
        repl.console.print(Text(line, style=style))
    if len(lines) > MAX_PATCH_LINES:
        repl.say(repl.s.t("… {n} more diff lines", n=len(lines) - MAX_PATCH_LINES))
