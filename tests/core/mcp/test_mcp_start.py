"""A server that is slow to start, written with the `mcp` SDK and run through the real CLI
`-p`: its start-up deadline (UNICUM_MCP_TIMEOUT) counts from its first output, so a server
that says something and then takes most of the deadline again still starts; one that stays
silent past it is one line naming UNICUM_MCP_TIMEOUT and the server's log."""

from __future__ import annotations

import sys

import pytest

from tests.conftest import provider_env, run_cli
from tests.helpers.mcp_helpers import SERVER, tool_specs, write_servers


def run_p(llm, workspace, timeout: dict[str, str]):
    llm.reply("done")
    env = {**provider_env(llm, "openai"), **timeout}
    return run_cli(
        "--dir", str(workspace), "-p", "hi", "--provider", "openai", "--no-codemap", env=env
    )  # fmt: skip


def test_the_deadline_counts_from_the_servers_first_output(llm, workspace, isolated_home):
    # silent 8 s (then the SDK's import), a line on stderr, 9 s more: past 16 s from its start
    # by the sleeps alone, whatever the speed; each part has seconds to spare on a loaded machine
    slow = {"command": sys.executable, "args": [SERVER, "slow", "8", "9"]}
    write_servers(isolated_home / "config.json", {"slow": slow})
    proc = run_p(llm, workspace, {"UNICUM_MCP_TIMEOUT": "16"})
    assert proc.returncode == 0, proc.stderr
    assert "did not start" not in proc.stderr, proc.stderr
    assert "mcp__slow__echo" in tool_specs(llm.requests[0].body)
    log = (isolated_home / "logs" / "mcp-slow.log").read_text()
    assert "slow server: starting" in log  # its stderr still reaches its log


@pytest.mark.parametrize("timeout", [{"UNICUM_MCP_TIMEOUT": "3"}, {"MCP_TIMEOUT": "3000"}])
def test_a_server_silent_past_the_deadline_names_the_variable_and_its_log(
    llm, workspace, isolated_home, timeout, monkeypatch
):
    monkeypatch.delenv("UNICUM_MCP_TIMEOUT", raising=False)  # the tests' own default
    slow = {"command": sys.executable, "args": [SERVER, "slow", "30", "0"]}
    write_servers(isolated_home / "config.json", {"slow": slow})
    proc = run_p(llm, workspace, timeout)  # ours in seconds, Claude Code's in ms
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "done"
    warnings = [line for line in proc.stderr.splitlines() if "warning" in line]
    log = isolated_home / "logs" / "mcp-slow.log"
    assert len(warnings) == 1, proc.stderr
    assert "MCP server 'slow' did not start: no answer within 3 s (" in warnings[0]
    assert f"UNICUM_MCP_TIMEOUT=60; its log: {log})" in warnings[0]
    assert not any(n.startswith("mcp__slow__") for n in tool_specs(llm.requests[0].body))
