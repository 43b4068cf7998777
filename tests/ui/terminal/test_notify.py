"""Notifications: in `-p` (the Notification hook, the bell only on a terminal's stderr) and in
the REPL by terminal focus (focus reports sent through the pty as a terminal sends them)."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, provider_env, run_cli
from tests.helpers.repl_driver import start_repl, user_texts

OSC_DONE = "\x1b]9;Unicum: task finished"
OSC_WAIT = "\x1b]9;Unicum: waiting for your approval"
FOCUS_ON, FOCUS_OFF = "\x1b[?1004h", "\x1b[?1004l"
FOCUS_IN, FOCUS_OUT = "\x1b[I", "\x1b[O"  # what a terminal sends as its window gains/loses focus


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


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bad_notifications_setting_is_one_line_before_any_request(
    llm, workspace, isolated_home, lang
):
    (isolated_home / "config.json").write_text(
        json.dumps({"notifications": {"after_seconds": "soon"}})
    )
    proc = run_cli(
        "--dir", str(workspace), "--no-codemap", "--provider", "openai", "-p", "go",
        "--lang", lang, env=provider_env(llm, "openai"),
    )  # fmt: skip
    assert proc.returncode == 2 and proc.stdout == "" and not llm.requests
    said = {
        "en": "notifications.after_seconds must be a number of seconds, 0 or more (got 'soon')",
        "zh": "notifications.after_seconds 必须是秒数（0 或更大，当前为 'soon'）",
    }
    (line,) = proc.stderr.splitlines()
    assert line.startswith(f"unicum: {said[lang]}")


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


def test_repl_notifies_by_the_terminals_focus_reports(llm, workspace, tmp_path, isolated_home):
    heard = notification_hook(isolated_home, tmp_path, {"after_seconds": 3600})  # time: never
    go = workspace / "go"
    llm.reply("first answer")
    llm.call("write_file", {"path": "a.txt", "content": "a\n"})
    llm.reply("second answer")
    llm.call("terminal", {"command": f"while [ ! -e {go} ]; do sleep 0.05; done; echo waited"})
    llm.reply("third answer")
    llm.call("write_file", {"path": "b.txt", "content": "b\n"})
    llm.reply("fourth answer")
    repl = start_repl(llm, workspace, "--no-codemap", provider="openai")
    try:
        assert FOCUS_ON in repl.raw
        repl.child.send(FOCUS_OUT)  # the person switched away, then typed a task anyway
        repl.send("one")
        repl.expect("first answer")
        repl.prompt()
        assert user_texts(llm.requests[0].body) == ["one"]  # the report is not typed text
        assert repl.raw.count(OSC_DONE) == 1

        repl.child.send(FOCUS_IN)
        repl.send("two")
        repl.expect(r"Write a\.txt\?")
        repl.child.send("y")
        repl.expect("second answer")
        repl.prompt()
        assert repl.raw.count(OSC_DONE) == 1 and OSC_WAIT not in repl.raw  # focused: quiet

        repl.send("three")
        repl.expect("waited|while")  # the tool runs, nobody reads the terminal
        repl.child.send(FOCUS_OUT + "typed ahead")
        go.write_text("")
        repl.expect("third answer")
        repl.prompt()
        assert repl.raw.count(OSC_DONE) == 2  # it lost focus during the task
        assert "^[[O" not in repl.text and "[O" not in repl.text  # not echoed

        repl.send("")  # the keys typed during the task are the next prompt's line
        repl.expect(r"Write b\.txt\?")
        assert repl.raw.count(OSC_WAIT) == 1  # an approval waits, unfocused
        repl.child.send(FOCUS_IN)  # the report is not an answer (its ESC is not Esc: "no")
        repl.child.send("y")
        repl.expect("fourth answer")
        repl.prompt()
        assert user_texts(llm.requests[5].body)[-1] == "typed ahead"
        assert (workspace / "b.txt").read_text() == "b\n"
        assert repl.raw.count(OSC_DONE) == 2  # focused again at its end
        repl.send("/quit")
        repl.wait_exit()
    finally:
        repl.close()
    assert repl.raw.rindex(FOCUS_OFF) > repl.raw.rindex(FOCUS_ON)
    messages = [json.loads(line)["message"] for line in heard.read_text().splitlines()]
    assert [m.split(" (")[0] for m in messages] == [
        "Unicum: task finished",
        "Unicum: task finished",
        "Unicum: waiting for your approval",
    ]


@pytest.mark.parametrize("after, fires", [(3600, False), (0, True)])
def test_repl_without_focus_reports_keeps_the_time_rule(
    llm, workspace, tmp_path, isolated_home, after, fires
):
    notification_hook(isolated_home, tmp_path, {"after_seconds": after})
    llm.reply("short answer")
    repl = start_repl(llm, workspace, "--no-codemap", provider="openai")
    try:
        repl.command("quick", "short answer")  # the terminal never reported: time decides
    finally:
        repl.close()
    assert (OSC_DONE in repl.raw) is fires
