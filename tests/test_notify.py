"""Notifications: in `-p` (the Notification hook, the bell only on a terminal's stderr) and in
the REPL by terminal focus (focus reports sent through the pty as a terminal sends them)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, provider_env

OSC_DONE = "\x1b]9;Unicum: task finished"


def notification_hook(home: Path, tmp_path: Path, config: dict) -> Path:
    """A Notification hook that appends its stdin JSON to a file (returned)."""
    heard = tmp_path / "heard.jsonl"
    hook = tmp_path / "hook.py"
    hook.write_text(f"import sys\nopen({str(heard)!r}, 'a').write(sys.stdin.read() + '\\n')\n")
    entry = {"hooks": [{"type": "command", "command": f"{sys.executable} {hook}"}]}
    (home / "settings.json").write_text(json.dumps({"hooks": {"Notification": [entry]}}))
    (home / "config.json").write_text(json.dumps({"notifications": config}))
    return heard


def headless(llm, workspace: Path, stderr: int | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, str(ROOT / "cli.py"), "--dir", str(workspace), "--no-codemap"]
        + ["--provider", "openai", "-p", "go", "--output-format", "json"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=stderr if stderr is not None else subprocess.PIPE,
        text=True,
        env={**os.environ, **provider_env(llm, "openai")},
    )


def test_headless_task_end_runs_the_notification_hook_and_keeps_json_clean(
    llm, workspace, tmp_path, isolated_home
):
    heard = notification_hook(isolated_home, tmp_path, {"after_seconds": 0})
    llm.reply("first answer")
    out, err = headless(llm, workspace).communicate(timeout=60)
    assert json.loads(out)["result"] == "first answer"  # stdout is the JSON and nothing else
    assert "\x07" not in out + err and "\x1b]" not in out + err  # stderr is not a terminal
    (event,) = [json.loads(line) for line in heard.read_text().splitlines()]
    assert event["hook_event_name"] == "Notification"
    assert event["message"].startswith("Unicum: task finished")
    assert event["cwd"] == str(workspace.resolve()) and event["session_id"]


def test_headless_bell_and_osc_go_to_stderr_only_when_it_is_a_terminal(
    llm, workspace, tmp_path, isolated_home
):
    notification_hook(isolated_home, tmp_path, {"after_seconds": 0})
    llm.reply("second answer")
    master, slave = pty.openpty()
    try:
        proc = headless(llm, workspace, stderr=slave)
        os.close(slave)
        out, _ = proc.communicate(timeout=60)
        screen = read_all(master)
    finally:
        os.close(master)
    assert json.loads(out)["result"] == "second answer"
    assert "\x07" not in out and "\x1b" not in out
    assert "\a" + OSC_DONE in screen and "]777;notify;Unicum;Unicum: task finished" in screen


def read_all(fd: int) -> str:
    """What a pty's other end wrote, up to its close."""
    data = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the writer closed it
            break
        if not chunk:
            break
        data += chunk
    return data.decode("utf-8", "replace")
