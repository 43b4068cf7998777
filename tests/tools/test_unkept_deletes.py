"""Deleting what snapshots cannot bring back, through the real CLI in the real sandbox: a
git-ignored file (`.env`, `app.log`) or one over 10 MB is asked (refused in `-p`), while a
tracked file (snapshotted, so /undo brings it back) and an ignored build folder are not."""

from __future__ import annotations

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


@pytest.fixture
def world():
    root, home, project, _ = new_world()
    (project / ".gitignore").write_text("build/\n*.log\n.env\n")
    (project / ".env").write_text("DB_PASSWORD=fake-local-only\n")
    (project / "app.log").write_text("log\n")
    (project / "data.bin").write_bytes(b"\0" * (11 * 1024 * 1024))
    (project / "build").mkdir()
    (project / "build" / "out.o").write_text("o\n")
    yield home, project
    remove(root)


def test_ignored_and_big_files_are_asked_before_deletion(llm, world):
    home, project = world
    for command in ("rm .env", "rm -f app.log", "rm data.bin", "rm src/app.py", "rm -rf build"):
        llm.call("terminal", {"command": command})
    llm.reply("done")
    done = sandbox_cli(llm, home, project)
    assert done.returncode == 0, done.stderr
    outputs = tool_results(llm)
    assert all(o.startswith("refused") and "/undo cannot" in o for o in outputs[:3]), outputs
    assert (project / ".env").is_file() and (project / "app.log").is_file()
    assert (project / "data.bin").is_file()
    assert not (project / "src" / "app.py").exists() and not (project / "build").exists()
