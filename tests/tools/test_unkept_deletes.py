"""Deleting what the shadow repository does not hold, through the real CLI in the real sandbox:
a git-ignored file (`.env`, `app.log`) or one over 10 MB is kept in the snapshot store before the
command runs (a hard link; a copy for `shred`, which overwrites first), so `/undo` brings back
its bytes; one that cannot be kept (a `shred` of more than the copy cap) is asked, and refused
in `-p`."""

from __future__ import annotations

import hashlib

import pytest

from tests.conftest import provider_env
from tests.helpers.repl_driver import Repl
from tests.helpers.sandbox_helpers import (
    new_world,
    remove,
    sandbox_cli,
    sandbox_problem,
    tool_results,
)

PROBLEM = sandbox_problem()
pytestmark = pytest.mark.skipif(bool(PROBLEM), reason=f"no sandbox: {PROBLEM}")
BIG = 11 * 1024 * 1024


@pytest.fixture
def world():
    root, home, project, _ = new_world()
    (project / ".gitignore").write_text("build/\n*.log\n.env\n*.key\n")
    (project / ".env").write_text("DB_PASSWORD=fake-local-only\n")
    (project / "app.log").write_text("log\n")
    (project / "signing.key").write_text("fake-signing-key\n")
    (project / "data.bin").write_bytes(bytes(range(256)) * (BIG // 256))
    (project / "build").mkdir()
    (project / "build" / "out.o").write_text("o\n")
    yield home, project
    remove(root)


def digests(project, names) -> dict[str, str]:
    return {n: hashlib.sha256((project / n).read_bytes()).hexdigest() for n in names}


KEPT = (".env", "app.log", "signing.key", "data.bin")


def test_kept_deletes_run_unasked_and_undo_brings_the_bytes_back(llm, world):
    home, project = world
    before = digests(project, KEPT)
    command = "rm .env && rm -f app.log data.bin && shred -u signing.key && rm -rf build"
    llm.call("terminal", {"command": command})
    llm.reply("deleted")
    env = {**provider_env(llm, "openai"), "HOME": str(home)}
    env["UNICUM_HOME"] = str(home / ".unicum-agent")
    repl = Repl("--dir", str(project), "--provider", "openai", "--no-codemap", env=env)
    try:
        repl.expect(r"Do you trust the files")
        repl.child.send("y")
        repl.prompt()
        repl.send("delete the generated files")
        repl.expect("deleted")
        repl.prompt()
        assert not any((project / n).exists() for n in KEPT)  # ran, unasked: it is undoable
        repl.command("/undo", r"Undid turn 1: \d+ files? restored")
        repl.send("/quit")
        repl.wait_exit()
    finally:
        repl.close()
    assert digests(project, KEPT) == before  # the same bytes (shred's copy, not its noise)
    assert "exit 0" in tool_results(llm)[0]


def test_a_file_too_large_to_keep_is_asked_and_refused_in_print_mode(llm, world):
    home, project = world
    with (project / "huge.log").open("wb") as fh:
        fh.truncate(600 * 1024 * 1024)  # sparse: over the 512 MB a command may copy
    llm.call("terminal", {"command": "shred -u huge.log"})
    llm.call("terminal", {"command": "rm app.log"})
    llm.reply("done")
    done = sandbox_cli(llm, home, project)
    assert done.returncode == 0, done.stderr
    first, second = tool_results(llm)
    assert first.startswith("refused") and "too large for the snapshots to keep" in first
    assert "/undo cannot bring it back" in first
    assert (project / "huge.log").is_file()
    assert "exit 0" in second and not (project / "app.log").exists()  # kept: not asked
