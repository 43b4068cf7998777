"""MCP servers written with the SDK's own server API, driven through the real CLI and the
scripted model: stdio and streamable HTTP round trips, a crash mid-session, a server that never
answers, approvals and redaction."""

from __future__ import annotations

import json
import re
import time

from tests.conftest import provider_env, run_cli
from tests.helpers.mcp_helpers import (
    http_server,
    stdio_entry,
    tool_results,
    tool_specs,
    write_servers,
)
from tests.helpers.repl_driver import Repl


def _run(llm, workspace, *extra: str, env: dict[str, str] | None = None):
    return run_cli(
        "--dir",
        str(workspace),
        "-p",
        "use the server",
        "--provider",
        "openai",
        "--trust-project",  # -p starts a project's servers only when approved or opted in
        *extra,
        env={**provider_env(llm, "openai"), **(env or {})},
    )


def test_stdio_round_trip_text_image_resource_and_redaction(llm, workspace):
    entry = stdio_entry(env={"LEAKED_TOKEN": "${OPENAI_API_KEY}"})
    write_servers(workspace / ".mcp.json", {"srv": entry})
    llm.call("mcp__srv__echo", {"text": "hi"})
    llm.call("mcp__srv__leak", {})
    llm.call("mcp__srv__picture", {})
    llm.reply("done")

    proc = _run(llm, workspace, "--yes")

    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "done"
    assert "warning" not in proc.stderr
    specs = tool_specs(llm.requests[0].body)
    assert specs["mcp__srv__echo"]["parameters"]["properties"]["text"]["type"] == "string"
    assert "Echo the text back" in specs["mcp__srv__echo"]["description"]
    echo, leak, picture = tool_results(llm.requests[3].body)
    assert echo.startswith("echo: hi (pid ")
    assert leak == "token=[redacted]"  # the key reached the server; never the model
    assert "[image: image/png, 70 bytes]" in picture and "note body" in picture
    tools = [r.body["tools"] for r in llm.requests]
    assert all(t == tools[0] for t in tools)  # one tool list for the whole session


def test_streamable_http_round_trip(llm, workspace, isolated_home):
    with http_server() as url:
        write_servers(isolated_home / "config.json", {"web": {"type": "http", "url": url}})
        llm.call("mcp__web__echo", {"text": "over http"})
        llm.reply("ok")
        proc = _run(llm, workspace, "--yes")
    assert proc.returncode == 0, proc.stderr
    assert tool_results(llm.requests[1].body)[0].startswith("echo: over http")


def test_ask_mode_refuses_an_mcp_call_nobody_approved(llm, workspace):
    write_servers(workspace / ".mcp.json", {"srv": stdio_entry()})
    llm.call("mcp__srv__echo", {"text": "hi"})
    llm.reply("refused")
    proc = _run(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    result = tool_results(llm.requests[1].body)[0]
    assert result.startswith("refused: Run the MCP tool echo of server 'srv'")
    assert "echo: hi" not in result


def test_a_server_that_crashes_mid_session_is_one_warning(llm, workspace):
    write_servers(workspace / ".mcp.json", {"srv": stdio_entry()})
    llm.call("mcp__srv__echo", {"text": "before"})
    llm.call("mcp__srv__crash", {})
    llm.call("mcp__srv__echo", {"text": "after"})
    llm.reply("went on")

    proc = _run(llm, workspace, "--yes")

    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "went on"
    before, crash, after = tool_results(llm.requests[3].body)
    assert before.startswith("echo: before")
    assert crash.startswith("mcp__srv__crash is unavailable: MCP server 'srv' stopped")
    assert after.startswith("mcp__srv__echo is unavailable: MCP server 'srv' stopped")
    warnings = [line for line in proc.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "MCP server 'srv' stopped" in warnings[0], proc.stderr


def test_a_server_that_never_answers_blocks_nothing(llm, workspace, isolated_home):
    # the one that answers is already listening (no start of its own to race the deadline),
    # so only the mute one can meet it: one warning, whatever the machine's speed
    with http_server() as url:
        write_servers(isolated_home / "config.json", {"web": {"type": "http", "url": url}})
        write_servers(workspace / ".mcp.json", {"mute": stdio_entry("hang")})
        llm.reply("answered")
        proc = _run(llm, workspace, env={"UNICUM_MCP_TIMEOUT": "5"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "answered"
    names = set(tool_specs(llm.requests[0].body))
    assert "mcp__web__echo" in names and not any(n.startswith("mcp__mute__") for n in names)
    warnings = [line for line in proc.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "'mute' did not start: no answer within 5 s" in warnings[0]


def _mcp_lines(repl: Repl, last: str) -> str:
    """What /mcp prints (servers in name order: `last` is the last one's line)."""
    start = repl.pos
    repl.command("/mcp", last + r"\s+\w+")
    return repl.text[start : repl.pos]


def test_the_prompt_appears_at_once_and_mcp_shows_the_servers(workspace, isolated_home):
    servers = {"srv": stdio_entry(), "mute": stdio_entry("hang"), "gone": {"command": "/no/such"}}
    write_servers(workspace / ".mcp.json", servers)
    # Claude Code's setting: the project's servers start without the one-time question
    (isolated_home / "settings.json").write_text('{"enableAllProjectMcpServers": true}')
    mute = r"mute\s+stdio .* hang\s+\(project\)\s+(\w+)"
    srv = r"srv\s+stdio .*\(project\)"
    repl = Repl("--dir", str(workspace), env={"OPENAI_API_KEY": "fake-key"})
    try:
        repl.prompt()
        # no stopwatch: with the tests' deadline (120 s, conftest) the mute server is still
        # starting when the prompt is up, so start-up did not wait for the servers
        assert re.search(mute, _mcp_lines(repl, srv)).group(1) == "starting"
        for _ in range(240):  # a hang-guard: the answering one is ready in a few seconds
            shown = _mcp_lines(repl, srv)
            if not re.search(srv + r"\s+starting", shown):
                break
            time.sleep(0.5)
        assert re.search(srv + r"\s+ready\s+echo, leak, picture, crash", shown), shown
        assert re.search(mute, shown).group(1) == "starting"  # it blocked nothing
        assert re.search(r"gone\s+stdio /no/such\s+\(project\)\s+failed", shown)
        repl.command("/tools", r"mcp__srv__echo\s+joins at the first request")
        assert "mcp__gone__*" in repl.text
    finally:
        repl.close()


def test_mcp_shows_the_deadline_a_mute_server_missed(workspace, isolated_home):
    write_servers(workspace / ".mcp.json", {"mute": stdio_entry("hang")})
    (isolated_home / "settings.json").write_text('{"enableAllProjectMcpServers": true}')
    mute = r"mute\s+stdio .* hang\s+\(project\)"
    env = {"OPENAI_API_KEY": "fake-key", "UNICUM_MCP_TIMEOUT": "2"}
    repl = Repl("--dir", str(workspace), env=env)
    try:
        repl.prompt()
        for _ in range(240):  # a hang-guard: the deadline passes 2 s after the SDK loads
            shown = _mcp_lines(repl, mute)
            if not re.search(mute + r"\s+starting", shown):
                break
            time.sleep(0.5)
        assert re.search(mute + r"\s+failed:\s+no\s+answer within 2 s", shown), shown
        repl.command("/tools", r"mcp__mute__\*")
    finally:
        repl.close()


def test_mcp_subcommand_adds_lists_and_removes(workspace, isolated_home):
    add = run_cli("mcp", "add", "-e", "A=1", "local", "npx", "-y", "some-server")
    assert add.returncode == 0, add.stderr
    run_cli("mcp", "add", "-H", "Authorization: Bearer x", "remote", "https://example.test/mcp")
    project = run_cli("mcp", "--dir", str(workspace), "add", "--scope", "project", "p", "tool")
    assert project.returncode == 0, project.stderr
    saved = json.loads((isolated_home / "config.json").read_text())["mcpServers"]
    assert saved["local"] == {"command": "npx", "args": ["-y", "some-server"], "env": {"A": "1"}}
    assert saved["remote"] == {
        "type": "http",
        "url": "https://example.test/mcp",
        "headers": {"Authorization": "Bearer x"},
    }
    listed = run_cli("mcp", "--dir", str(workspace), "list").stdout
    assert "local\tstdio\tnpx -y some-server\t(user)" in listed
    assert "p\tstdio\ttool\t(project)" in listed
    assert run_cli("mcp", "remove", "local").returncode == 0
    assert "local" not in json.loads((isolated_home / "config.json").read_text())["mcpServers"]
    assert run_cli("mcp", "remove", "local").returncode == 1
