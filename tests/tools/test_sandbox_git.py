"""The git metadata carve-out, through the real CLI and the real sandbox: a scripted model
tries to plant code git would run later unsandboxed (core.fsmonitor, hooks, core.hooksPath,
aliases, filters, a rewritten `.git` file of a worktree); none of it lands, and git add,
commit and checkout -b still work inside the sandbox, in a repository and in a worktree."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.helpers.sandbox_helpers import (
    new_world,
    remove,
    sandbox_cli,
    sandbox_problem,
    tool_results,
)

PROBLEM = sandbox_problem()
pytestmark = pytest.mark.skipif(bool(PROBLEM), reason=f"no sandbox: {PROBLEM}")
ID = "-c user.name=agent -c user.email=agent@example.com"


@pytest.fixture
def world():
    root, home, project, outside = new_world()
    yield root, home, project
    remove(root)


def attacks(pwned: Path) -> list[str]:
    touch = f"touch {pwned}"
    return [
        f"git config core.fsmonitor '{touch}'",
        f"printf '#!/bin/sh\\n{touch}\\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit",
        "git config core.hooksPath evil-hooks",
        f"git config alias.st '!{touch}'",
        f"git config filter.x.clean '{touch}'",
        f"printf '[core]\\n\\tfsmonitor = {touch}\\n' >> .git/config",
        "mv .git/config .git/config.old; mv .git/hooks .git/hooks.old",
        "mv .git .git-old",
        f"git config --global core.fsmonitor '{touch}'",
    ]


BENIGN = (
    f"echo new > new.txt && git add new.txt && git {ID} commit -qm 'add new' "
    "&& git checkout -qb topic && git branch --show-current"
)


def host_git(folder: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True)
    return done.stdout + done.stderr


def plant_and_commit(llm, home: Path, folder: Path, pwned: Path) -> list[str]:
    for command in attacks(pwned):
        llm.call("terminal", {"command": command})
    llm.call("terminal", {"command": BENIGN})
    llm.reply("done")
    done = sandbox_cli(llm, home, folder, "--permission-mode", "yolo")  # the sandbox alone
    assert done.returncode == 0, done.stderr
    return tool_results(llm)


def assert_nothing_runs_later(folder: Path, pwned: Path) -> None:
    """The user's own git commands afterwards (unsandboxed) run no planted code."""
    for args in (["status"], ["st"], ["add", "-A"], ["commit", "-qm", "x", "--allow-empty"]):
        host_git(folder, "-c", "user.name=u", "-c", "user.email=u@e", *args)
    assert not pwned.exists()


def test_git_config_and_hooks_are_read_only_but_commits_work(llm, world):
    root, home, project = world
    config = (project / ".git" / "config").read_bytes()
    pwned = root / "PWNED"
    outputs = plant_and_commit(llm, home, project, pwned)
    assert (project / ".git" / "config").read_bytes() == config, outputs
    assert not (project / ".git" / "hooks" / "pre-commit").exists()
    assert (project / ".git").is_dir() and not (project / ".git-old").exists()
    assert not (home / ".gitconfig").exists()
    assert all("exit 0" not in o for o in outputs[:-2]), outputs  # --global: the empty home
    assert "read-only to commands" in outputs[0]  # one line the model can act on
    assert outputs[-1].startswith("topic"), outputs[-1]
    assert "add new" in host_git(project, "log", "--oneline", "topic")
    assert_nothing_runs_later(project, pwned)


def test_a_worktree_commits_through_its_real_gitdir_and_keeps_its_git_file(llm, world):
    root, home, project = world
    worktree = root / "wt"
    host_git(project, "worktree", "add", "-q", str(worktree), "-b", "wt-branch")
    gitfile = (worktree / ".git").read_text()
    gitdir = project / ".git" / "worktrees" / "wt"
    llm.call("terminal", {"command": "mkdir -p evil && echo 'gitdir: evil' > .git; cat .git"})
    llm.call("terminal", {"command": f"echo {root} > {gitdir}/commondir"})
    outputs = plant_and_commit(llm, home, worktree, root / "PWNED")
    assert (worktree / ".git").read_text() == gitfile, outputs
    assert (gitdir / "commondir").read_text().strip() == "../.."
    assert outputs[-1].startswith("topic"), outputs[-1]
    assert "add new" in host_git(project, "log", "--oneline", "topic")
    assert_nothing_runs_later(worktree, root / "PWNED")


def test_read_only_mode_keeps_git_read_only_too(llm, world):
    _, home, project = world
    config = home / ".unicum-agent" / "config.json"
    config.write_text('{"sandbox": {"mode": "read-only"}}')
    head = host_git(project, "rev-parse", "HEAD")
    llm.call("terminal", {"command": f"git {ID} commit -qm x --allow-empty; git branch b2"})
    llm.reply("done")
    done = sandbox_cli(llm, home, project, "--permission-mode", "yolo")
    assert done.returncode == 0, done.stderr
    assert host_git(project, "rev-parse", "HEAD") == head
    assert "b2" not in host_git(project, "branch")
