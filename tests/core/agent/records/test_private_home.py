"""The Unicum home is private: after a real CLI session that edits, runs commands (snapshots),
archives a long output, writes its transcript, debug log and ledger, every folder in the home
is 0700 and every file 0600 (the shadow repository's objects of a private project included),
whatever the umask; an older home left 0755 is narrowed at start."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from tests.conftest import provider_env, run_cli


def wide(home: Path) -> list[str]:
    found = []
    for dirpath, dirnames, filenames in os.walk(home):
        for name in [*dirnames, *filenames]:
            path = Path(dirpath, name)
            st = path.lstat()
            if stat.S_ISLNK(st.st_mode):
                continue
            want = 0o700 if stat.S_ISDIR(st.st_mode) else 0o600
            if st.st_mode & 0o777 & ~want:
                found.append(f"{oct(st.st_mode & 0o777)} {path.relative_to(home)}")
    return found


def test_everything_in_the_home_is_owner_only(llm, workspace, isolated_home):
    os.chmod(isolated_home, 0o755)  # as an older version left it
    (workspace / "secret.txt").write_text("fake-private-project-secret\n")
    llm.call("write_file", {"path": "notes.md", "content": "hello\n"})
    llm.call("terminal", {"command": "seq 1 5000"})  # long: archived for recall
    llm.call("terminal", {"command": "echo more >> notes.md"})
    llm.reply("done")
    env = {**provider_env(llm, "openai"), "UNICUM_DEBUG": "1"}
    old = os.umask(0o022)
    try:
        done = run_cli("--dir", str(workspace), "-p", "go", "--sandbox", "off", env=env)
    finally:
        os.umask(old)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(isolated_home.stat().st_mode) == 0o700
    names = {p.name for p in isolated_home.rglob("*")}
    assert "ledger.db" in names and any(n.endswith(".jsonl") for n in names), names
    assert (isolated_home / "snapshots").is_dir()
    assert wide(isolated_home) == [], "\n".join(wide(isolated_home))
