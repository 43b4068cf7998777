"""`-p` and a project's `.mcp.json` servers, through the real CLI: nobody can be asked, so a
server never approved for the project does not start (one line says which and how to enable
it) unless the settings approve it, the REPL's question was answered yes, or the run opts in
with `--trust-project`."""

from __future__ import annotations

import json

from tests.conftest import provider_env, run_cli
from tests.helpers.mcp_helpers import stdio_entry, tool_specs, write_servers

LINE = (
    "project MCP servers not started, never approved for this project: srv (approve them once "
    "in the REPL, list them in enabledMcpjsonServers or set enableAllProjectMcpServers in "
    "settings, or run with --trust-project)"
)


def run_p(llm, workspace, *extra: str):
    llm.reply("done")
    env = {**provider_env(llm, "openai"), "UNICUM_MCP_TIMEOUT": "60"}
    return run_cli(
        "--dir", str(workspace), "-p", "hi", "--provider", "openai", *extra, env=env
    )  # fmt: skip


def offered(llm) -> set[str]:
    return {n for n in tool_specs(llm.requests[-1].body) if n.startswith("mcp__")}


def test_a_server_never_approved_is_skipped_with_one_line(llm, workspace):
    write_servers(workspace / ".mcp.json", {"srv": stdio_entry()})
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "done"
    assert proc.stderr.count(LINE) == 1, proc.stderr
    assert offered(llm) == set()


def test_settings_approve_a_server_for_print_mode(llm, workspace, isolated_home):
    write_servers(workspace / ".mcp.json", {"srv": stdio_entry(), "other": stdio_entry()})
    (isolated_home / "settings.json").write_text(json.dumps({"enabledMcpjsonServers": ["srv"]}))
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert "mcp__srv__echo" in offered(llm)
    assert not any(n.startswith("mcp__other__") for n in offered(llm))
    assert "never approved for this project: other (" in proc.stderr


def test_enable_all_and_a_yes_given_in_the_repl_start_it(llm, workspace, isolated_home):
    write_servers(workspace / ".mcp.json", {"srv": stdio_entry()})
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"enableAllProjectMcpServers": True}))
    proc = run_p(llm, workspace)
    assert proc.returncode == 0 and "never approved" not in proc.stderr, proc.stderr
    assert "mcp__srv__echo" in offered(llm)
    settings.unlink()
    from core.agent import remember_server, servers_to_ask

    (server,) = servers_to_ask(workspace, isolated_home)  # what the REPL asks about
    remember_server(server, True, workspace, isolated_home)  # and the answer it keeps: yes
    proc = run_p(llm, workspace)
    assert proc.returncode == 0 and "never approved" not in proc.stderr, proc.stderr
    assert "mcp__srv__echo" in offered(llm)


def test_trust_project_opts_in_and_a_no_stays_no(llm, workspace, isolated_home):
    write_servers(workspace / ".mcp.json", {"srv": stdio_entry()})
    proc = run_p(llm, workspace, "--trust-project")
    assert proc.returncode == 0 and "never approved" not in proc.stderr, proc.stderr
    assert "mcp__srv__echo" in offered(llm)
    from core.agent import remember_server, servers_to_ask

    (server,) = servers_to_ask(workspace, isolated_home)
    remember_server(server, False, workspace, isolated_home)
    proc = run_p(llm, workspace, "--trust-project")
    assert proc.returncode == 0 and "never approved" not in proc.stderr, proc.stderr
    assert offered(llm) == set()  # answered no: not even the opt-in starts it
