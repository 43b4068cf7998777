"""A session ends as `/quit` ends it whichever way it ends: Claude Code's SessionEnd hooks run
with its reason, and a closed terminal (SIGHUP) or a `kill` (SIGTERM) closes the session's
services and removes its sandbox folders instead of dying on the spot."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import ROOT, provider_env
from tests.helpers.hook_helpers import script, settings
from tests.helpers.repl_driver import start_repl

# A hook in the shape Claude Code's hooks reference gives SessionEnd's input (session_id,
# transcript_path, cwd, hook_event_name, reason): it appends what it was given to a file.
RECORDER = """
import json, sys
event = json.load(sys.stdin)
with open(sys.argv[1], "a", encoding="utf-8") as fh:
    fh.write(json.dumps(event) + "\\n")
"""


def _recorded(log: Path) -> list[dict]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def _end_hook(workspace: Path, tmp_path: Path, matcher: str = "") -> Path:
    log = tmp_path / "ended.jsonl"
    command = f"{script(tmp_path, 'ended', RECORDER)} {log}"
    entry = {"hooks": [{"type": "command", "command": command}]}
    settings(
        workspace / ".claude", {"SessionEnd": [entry | ({"matcher": matcher} if matcher else {})]}
    )
    return log


def test_session_end_hooks_get_clear_for_new_and_prompt_input_exit_for_quit(
    llm, workspace, tmp_path
):
    log = _end_hook(workspace, tmp_path)
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.command("/new", "new session")
        assert [e["reason"] for e in _recorded(log)] == ["clear"]
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    first, second = _recorded(log)
    assert second["reason"] == "prompt_input_exit"
    assert first["hook_event_name"] == second["hook_event_name"] == "SessionEnd"
    assert first["session_id"] != second["session_id"]  # /new ended the first one
    assert Path(first["cwd"]) == workspace.resolve()
    assert first["transcript_path"].endswith(".jsonl")


def test_a_closed_terminal_ends_the_session_and_removes_its_sandbox_folders(
    llm, workspace, tmp_path
):
    log = _end_hook(workspace, tmp_path, matcher="other")  # a matcher on the reason
    scratch = tmp_path / "scratch"  # the session's TMPDIR: its sandbox folders go here
    scratch.mkdir()
    llm.call("terminal", {"command": "echo inside > /tmp/made.txt && echo done"})
    llm.reply("ran it")
    repl = start_repl(llm, workspace, "--no-codemap", env={"TMPDIR": str(scratch)})
    try:
        repl.command("run it", "ran it")
        held = [p for p in scratch.iterdir() if p.name.startswith("unicum-sandbox-")]
        assert held and any((p / "data" / "made.txt").is_file() for p in held)
        repl.child.kill(signal.SIGHUP)  # the terminal window closed
        deadline = time.monotonic() + 60  # a hang-guard; pexpect's close would signal again
        while repl.child.isalive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert repl.child.exitstatus == 128 + signal.SIGHUP, repl.child.signalstatus
    finally:
        repl.close()
    assert [e["reason"] for e in _recorded(log)] == ["other"]
    assert not [p for p in scratch.iterdir() if p.name.startswith("unicum-sandbox-")]


def test_sigterm_ends_a_print_run_as_its_end_would(llm, workspace, tmp_path):
    log = _end_hook(workspace, tmp_path)
    started = tmp_path / "started"
    llm.call("terminal", {"command": f"touch {started} && sleep 60"})
    env = {**os.environ, **provider_env(llm, "openai"), "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "cli.py"), "--dir", str(workspace), "-p", "wait",
         "--provider", "openai", "--no-codemap", "--sandbox", "off", "--yes"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert started.exists(), proc.communicate(timeout=30)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM, err
    assert [e["reason"] for e in _recorded(log)] == ["other"]
    assert "Traceback" not in err
