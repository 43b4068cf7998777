"""Git as Aider users expect it: the branch and short status in the first request (a prompt
section), commit messages the model writes from a diff (`/commit`, `--auto-commit`), and each
turn's changes committed as the agent's own commits, which `/undo` takes back."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from my_agent.errors import Interrupted
from my_agent.messages import Message, PromptSection, TextBlock
from tools.git_repo import GitError, Repo, find_repo, status_text
from tools.snapshots import get_snapshots

if TYPE_CHECKING:
    from core.agent.loop.agent import Agent

MAX_DIFF_CHARS = 24_000  # of the diff the model reads for a message
COMMIT_SYSTEM = (
    "You write git commit messages. Given a diff, reply with the commit message only: a "
    "subject line in the imperative mood of at most 72 characters, then, when the change "
    "needs it, a blank line and a short body saying what changed and why. No code fences, "
    "no quotes, no preamble."
)


def git_section(workspace: Path) -> list[PromptSection]:
    """The branch and `git status --short` for the first request (none outside a repo)."""
    repo = find_repo(workspace)
    return [PromptSection("git", status_text(repo))] if repo is not None else []


def commit_message(agent: Agent, diff: str, hint: str = "") -> str:
    """The session's model writes a message for `diff` (a request of its own, billed and
    recorded like a summary; the conversation is not changed)."""
    if len(diff) > MAX_DIFF_CHARS:
        diff = diff[:MAX_DIFF_CHARS] + f"\n[… {len(diff) - MAX_DIFF_CHARS:,} more characters]"
    ask = f"Write the commit message for this diff.{' ' + hint if hint else ''}\n\n{diff}"
    hooks = agent.hooks
    try:
        response = agent.client.stream(
            COMMIT_SYSTEM, [Message("user", [TextBlock(ask)])], [], lambda e: None,
            on_retry=hooks.on_retry,
        )  # fmt: skip
    except KeyboardInterrupt:
        raise Interrupted("commit message interrupted; nothing was committed") from None
    response.purpose = "commit"
    hooks.on_response(response)
    return clean_message(response.message.text)


def clean_message(text: str) -> str:
    lines = [line.rstrip() for line in text.strip().strip("`").strip().splitlines()]
    if lines and lines[0].lower() in ("text", "markdown", "git"):
        lines = lines[1:]  # a fence's language
    return "\n".join(lines).strip().strip('"').strip()


def auto_commit(agent: Agent) -> str:
    """`--auto-commit`: commit what the task that just ended changed, as the agent's own
    commit (only those files: what the user staged or changed elsewhere stays as it was).
    Returns the line for the user ("" when the turn changed no file)."""
    ctx = agent.tool_context
    repo = find_repo(ctx.workspace)
    snaps = get_snapshots(ctx)
    paths = snaps.turn_paths(snaps.turn)
    if repo is None or not paths:
        return ""
    full = [str(ctx.workspace / p) for p in paths]
    try:
        repo.git("add", "-A", "--", *full)
        message = commit_message(agent, repo.git("diff", "--cached", "--no-color", "--", *full))
        short = repo.commit(message or "Unicum: changes of one turn", full, agent=True)
    except GitError as exc:
        return f"not committed: {exc}"
    snaps.commits[snaps.turn] = repo.head()
    return f"committed {short}: {message.splitlines()[0] if message else ''}"


def take_back_commit(agent: Agent, turn: int, paths: list[str]) -> str:
    """After `/undo` of `turn`: its auto-commit is dropped when it is still the last commit
    (the user's own commits are never touched). The line for the user, or ""."""
    ctx = agent.tool_context
    commit = get_snapshots(ctx).commits.pop(turn, "")
    repo = find_repo(ctx.workspace)
    if not commit or repo is None:
        return ""
    if repo.head() != commit or not repo.is_agent_commit():
        return f"commit {commit[:7]} kept: later commits follow it (use git revert)"
    try:
        repo.take_back([str(ctx.workspace / p) for p in paths])
    except GitError as exc:
        return f"commit {commit[:7]} kept: {exc}"
    return f"took back commit {commit[:7]} (this turn's auto-commit)"


def staged_repo(workspace: Path) -> tuple[Repo | None, str]:
    """The repository and its staged diff, for `/commit`."""
    repo = find_repo(workspace)
    return repo, (repo.staged_diff() if repo is not None else "")
