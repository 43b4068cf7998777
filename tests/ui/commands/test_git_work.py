"""Git as Aider users expect: the branch and short status in the first request, `--auto-commit`
committing each turn's changes as the agent's own commit (apart from the user's staged work),
`/undo` taking that commit back, `/diff` showing git's working tree beside the session's own
diff, and `/commit` with a message the model writes from the staged diff."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import provider_env
from tests.helpers.repl_driver import Repl


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, check=True
    ).stdout


def repository(root: Path) -> Path:
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Test User")
    git(root, "config", "user.email", "test@example.com")
    (root / "README.md").write_text("# demo\n")
    git(root, "add", "README.md")
    git(root, "commit", "-q", "-m", "first")
    (root / "notes.txt").write_text("the user's own work\n")
    git(root, "add", "notes.txt")  # staged by the user, not part of the agent's turn
    return root


def test_git_work_in_the_repl(llm, workspace):
    repo = repository(workspace)
    first = git(repo, "rev-parse", "HEAD").strip()
    llm.call("write_file", {"path": "hello.py", "content": "print('hello')\n"})
    llm.reply("hello.py written")
    llm.reply("Add hello.py that prints a greeting")  # the auto-commit's message
    llm.reply("Add the user's notes")  # /commit's message
    repl = Repl(
        "--dir", str(repo), "--provider", "openai", "--no-codemap", "--auto-commit",
        "--permission-mode", "auto-edit", env=provider_env(llm, "openai"), columns=120,
    )  # fmt: skip
    try:
        repl.prompt()
        repl.send("add hello.py")
        repl.expect("hello.py written")
        repl.expect(r"committed [0-9a-f]{7}: Add hello\.py that prints a greeting")
        repl.prompt()
        assert git(repo, "log", "-1", "--format=%an|%s").strip() == (
            "Test User (unicum)|Add hello.py that prints a greeting"
        )
        assert git(repo, "show", "--name-only", "--format=", "HEAD").split() == ["hello.py"]
        assert git(repo, "diff", "--cached", "--name-only").split() == ["notes.txt"]
        repl.send("/diff stat")
        repl.expect("this session's changes")
        repl.expect(r"A hello\.py")
        repl.expect(r"git: the working tree against HEAD \(main\)")
        repl.expect(r"M notes\.txt")
        repl.prompt()
        repl.send("/undo")
        repl.expect(r"Undid turn 1")
        repl.expect(r"took back commit [0-9a-f]{7} \(this turn's auto-commit\)")
        repl.prompt()
        assert git(repo, "rev-parse", "HEAD").strip() == first
        assert not (repo / "hello.py").exists()
        assert git(repo, "status", "--short").splitlines() == ["A  notes.txt"]
        repl.send("/commit")
        repl.expect("Add the user's notes")
        repl.expect(r"Commit with this message\? \[y\] yes")
        repl.child.send("y")
        repl.expect(r"committed [0-9a-f]{7}: Add the user's notes")
        repl.prompt()
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    assert git(repo, "log", "-1", "--format=%an|%s").strip() == "Test User|Add the user's notes"
    system = llm.requests[0].body["messages"][0]["content"]
    assert "Branch: main" in system and "A  notes.txt" in system  # the first request
    asked = llm.requests[2].body["messages"][-1]["content"]
    assert "hello.py" in asked and "+print('hello')" in asked  # the turn's diff
    assert "notes.txt" not in asked
    assert "+the user's own work" in llm.requests[3].body["messages"][-1]["content"]
