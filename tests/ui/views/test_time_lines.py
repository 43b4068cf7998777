"""`--time` counts every part of a task: the first request's HTTP client set-up on a line of its own
(not model time), the start (code-map wait, memory, hooks) and the end (memory saved, Stop
hooks); through the real CLI against the scripted server."""

from __future__ import annotations

import json
import re
import sys

from tests.conftest import provider_env, run_cli
from tests.helpers.mcp_helpers import http_server, stdio_entry, write_servers
from tests.helpers.repl_driver import Repl

SUMMARY = re.compile(
    r"· ([\d.]+)s = model ([\d.]+)s \+ tools ([\d.]+)s \+ Unicum ([\d.]+)s "
    r"\(start ([\d.]+)s((?:, [A-Za-z ]+ [\d.]+s)*), end ([\d.]+)s"
)
PART = re.compile(r", ([A-Za-z ]+) ([\d.]+)s")


def summary(stderr: str) -> tuple[float, float, float, float, float, dict[str, float], float]:
    """total, model, tools, Unicum, start, {wait: seconds}, end"""
    total, model, tools, own, start, parts, end = SUMMARY.search(stderr).groups()
    waits = {name: float(value) for name, value in PART.findall(parts)}
    return float(total), float(model), float(tools), float(own), float(start), waits, float(end)


def timed_p(llm, workspace, *extra: str):
    return run_cli(
        "--dir", str(workspace), "-p", "look at a.py", "--provider", "openai", "--time", *extra,
        env=provider_env(llm, "openai"),
    )  # fmt: skip


def test_the_first_request_of_p_shows_the_http_client_apart_from_model_time(llm, workspace):
    (workspace / "a.py").write_text("x = 1\n")
    llm.call("read_file", {"path": "a.py"})
    llm.reply("a.py sets x")
    proc = timed_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if "⏱" in line]
    sdk = [n for n, line in enumerate(lines) if "⏱ HTTP client set up" in line]  # its own line
    first = next(n for n, line in enumerate(lines) if "request 1:" in line)
    second = next(n for n, line in enumerate(lines) if "request 2:" in line)
    assert sdk == [first - 1] and second > first  # one line, before the first request only
    said = float(re.search(r"HTTP client set up in ([\d.]+)s \(", lines[sdk[0]]).group(1))
    total, model, tools, own, start, waits, end = summary(proc.stderr)
    assert waits["HTTP client"] == said  # in Unicum's share, not the model's
    assert abs(total - (model + tools + own)) < 0.03
    assert own + 0.03 >= start + sum(waits.values()) + end
    assert re.search(r"⏱ started in [\d.]+s before the task: imports [\d.]+s, session", proc.stderr)


def test_the_end_hooks_are_inside_the_total(llm, workspace, isolated_home, tmp_path):
    """A Stop hook that takes half a second: its time is in the task's total, as "end"."""
    slow = tmp_path / "slow_stop.py"
    slow.write_text("import sys, time\nsys.stdin.read()\ntime.sleep(0.5)\n")
    hooks = {"Stop": [{"hooks": [{"type": "command", "command": f"{sys.executable} {slow}"}]}]}
    (isolated_home / "settings.json").write_text(json.dumps({"hooks": hooks}))
    llm.reply("done")
    proc = timed_p(llm, workspace, "--no-codemap")
    assert proc.returncode == 0, proc.stderr
    total, model, tools, own, start, _, end = summary(proc.stderr)
    assert end >= 0.5  # the hook slept that long (a lower bound: sleep never ends early)
    assert total >= model + end and abs(total - (model + tools + own)) < 0.03


def test_later_requests_of_a_repl_session_show_no_http_client_set_up(llm, workspace):
    llm.reply("first answer").reply("second answer")
    repl = Repl(
        "--dir", str(workspace), "--provider", "openai", "--no-codemap", "--time",
        env=provider_env(llm, "openai"),
    )  # fmt: skip
    try:
        repl.prompt()
        repl.send("hello")
        repl.expect(r"1 request · 0 tool calls · [\d.]+s = model")
        repl.prompt()
        mark = repl.pos
        repl.send("again")
        repl.expect("second answer")
        repl.expect(r"1 request · 0 tool calls · [\d.]+s = model [^\n]*end [\d.]+s")
        later = repl.text[mark : repl.pos]
        assert "request 1: first token" in later and "HTTP client" not in later
        assert repl.text.count("⏱ HTTP client set up") <= 1  # the first task's, if it waited for it
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()


def test_p_names_the_mcp_servers_it_waited_for(llm, workspace, isolated_home, monkeypatch):
    """User-level servers: one that starts, one that never answers (its deadline shortened).
    The first request waited for them: the wait is its own line naming the one still
    starting, and its own part of Unicum's share. The one that starts is already listening
    (HTTP), so its start cannot race the mute one's deadline on a loaded machine."""
    monkeypatch.setenv("UNICUM_MCP_TIMEOUT", "5")
    llm.reply("done")
    with http_server() as url:
        servers = {"srv": {"type": "http", "url": url}, "mute": stdio_entry("hang")}
        write_servers(isolated_home / "config.json", servers)
        proc = timed_p(llm, workspace, "--no-codemap")
    assert proc.returncode == 0, proc.stderr
    line = re.search(
        r"⏱ waited ([\d.]+)s for MCP servers still starting: ([\w, ]+) \(", proc.stderr
    )
    assert line and "mute" in line.group(2).split(", ")
    _, _, _, own, start, waits, end = summary(proc.stderr)
    assert waits["MCP servers"] == float(line.group(1))
    assert own + 0.03 >= start + sum(waits.values()) + end
    assert "MCP server 'mute' did not start: no answer within 5 s" in proc.stderr
    assert "mcp__srv__" in json.dumps(llm.requests[0].body["tools"]), proc.stderr
