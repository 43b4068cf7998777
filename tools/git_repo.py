"""The project's own git repository (not the shadow one behind /undo): its branch and short
status for the first request, the staged diff `/commit` describes, the working tree against
HEAD for `/diff`, and commits — the user's own (`/commit`) and the agent's (`--auto-commit`,
authored as "NAME (unicum)" so they stay apart from the user's)."""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

TIMEOUT = 10.0
STATUS_LINES = 20  # short-status entries the prompt shows; the rest are counted
AGENT_SUFFIX = " (unicum)"  # what marks the agent's own commits


class GitError(Exception):
    """A git command failed; the message is one line."""


@dataclass(frozen=True)
class Repo:
    root: Path

    def git(self, *args: str, check: bool = True) -> str:
        env = {**os.environ, "LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0"}
        try:
            done = subprocess.run(
                ["git", "-C", str(self.root), *args],
                capture_output=True,
                text=True,
                errors="replace",
                env=env,
                timeout=TIMEOUT,
                stdin=subprocess.DEVNULL,
            )
        except FileNotFoundError:
            raise GitError("git is not installed") from None
        except subprocess.TimeoutExpired:
            raise GitError(f"git {args[0]} took over {TIMEOUT:.0f}s") from None
        if check and done.returncode != 0:
            err = done.stderr.strip().splitlines()
            raise GitError(f"git {args[0]}: {err[-1] if err else f'exit {done.returncode}'}")
        return done.stdout

    def branch(self) -> str:
        name = self.git("rev-parse", "--abbrev-ref", "HEAD", check=False).strip()
        return name if name and name != "HEAD" else "(detached HEAD)"

    def status(self) -> list[str]:
        """`git status --short` lines (paths relative to the repository's root)."""
        return [line for line in self.git("status", "--short").splitlines() if line.strip()]

    def staged_diff(self) -> str:
        return self.git("diff", "--cached", "--no-color", "--no-ext-diff")

    def working_diff(self) -> str:
        """The working tree (staged or not) against HEAD; "" on a repository with no commit."""
        if not self.git("rev-parse", "--verify", "-q", "HEAD", check=False).strip():
            return ""
        return self.git("diff", "HEAD", "--no-color", "--no-ext-diff")

    def head(self) -> str:
        return self.git("rev-parse", "--verify", "-q", "HEAD", check=False).strip()

    def commit(self, message: str, paths: list[str] | None = None, agent: bool = False) -> str:
        """Commit the index (`paths` None), or only `paths` as they are in the working tree
        (new ones added first; whatever else is staged stays staged). `agent`: authored as
        "NAME (unicum)". Returns the new commit's short id."""
        args = ["commit", "-q", "--no-verify", "-m", message]
        if agent:
            name = self.git("config", "user.name", check=False).strip() or "user"
            email = self.git("config", "user.email", check=False).strip() or "unicum@localhost"
            args.append(f"--author={name}{AGENT_SUFFIX} <{email}>")
        if paths is not None:
            present = [p for p in paths if (self.root / p).exists()]
            if present:
                self.git("add", "--", *present)
            args += ["--only", "--", *paths]
        self.git(*args)
        return self.git("rev-parse", "--short", "HEAD").strip()

    def is_agent_commit(self, ref: str = "HEAD") -> bool:
        return (
            self.git("log", "-1", "--format=%an", ref, check=False).strip().endswith(AGENT_SUFFIX)
        )

    def take_back(self, paths: list[str]) -> None:
        """Drop the agent's last commit (HEAD), keeping the working tree as it is; those paths
        are unstaged again (the user's other staged changes stay)."""
        self.git("reset", "-q", "--soft", "HEAD~1")
        self.git("reset", "-q", "HEAD", "--", *paths)


def find_repo(workspace: Path) -> Repo | None:
    """The repository the workspace is in, or None (not a repository, or no git)."""
    try:
        top = Repo(workspace).git("rev-parse", "--show-toplevel", check=False).strip()
    except GitError:
        return None
    return Repo(Path(top)) if top else None


def status_text(repo: Repo) -> str:
    """Branch and short status, for the first request (the prompt's git section)."""
    try:
        lines = repo.status()
        branch = repo.branch()
    except GitError as exc:
        return f"git: {exc}"
    shown = lines[:STATUS_LINES]
    more = [f"… {len(lines) - STATUS_LINES} more"] if len(lines) > STATUS_LINES else []
    body = "\n".join(shown + more) if lines else "(clean: nothing to commit)"
    return f"Branch: {branch}\n`git status --short`:\n{body}"
