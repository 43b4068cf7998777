"""Snapshots through the real CLI at their edges: a git lock file left by a killed process (or
a second session on the same project) does not stop them with git's "remove the file manually",
and a folder that becomes a symlink does not make every later snapshot fail."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import provider_env, run_cli
from tools.snapshots import Snapshots


def run(llm, folder: Path, *commands: str):
    for command in commands:
        llm.call("terminal", {"command": command})
    llm.reply("done")
    return run_cli(
        "--dir",
        str(folder),
        "-p",
        "go",
        "--sandbox",
        "off",
        "--yes",
        env=provider_env(llm, "openai"),
    )


def shadow(isolated_home: Path, folder: Path) -> Path:
    return Snapshots(folder, isolated_home, "probe").git.git_dir


def test_a_stale_git_lock_does_not_stop_snapshots(llm, workspace, isolated_home):
    (workspace / "a.txt").write_text("one\n")
    assert run(llm, workspace, "echo two > a.txt").returncode == 0
    git_dir = shadow(isolated_home, workspace)
    (git_dir / "index.lock").write_text("")  # a git killed mid-write left it
    done = run(llm, workspace, "echo three > a.txt")
    assert done.returncode == 0, done.stderr
    assert "snapshot" not in done.stderr and "manually" not in done.stderr, done.stderr


def test_a_folder_that_becomes_a_symlink_keeps_snapshots_working(llm, workspace):
    (workspace / "lib").mkdir()
    (workspace / "lib" / "m.py").write_text("x = 1\n")
    assert run(llm, workspace, "echo y >> lib/m.py").returncode == 0
    done = run(
        llm, workspace, "mv lib lib2 && ln -s lib2 lib", "echo z >> lib2/m.py", "touch b.txt"
    )
    assert done.returncode == 0, done.stderr
    assert "snapshot" not in done.stderr, done.stderr
