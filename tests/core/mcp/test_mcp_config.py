"""Which MCP servers a session starts: Claude Code's shape, variables, and one warning for a
broken entry or file."""

from __future__ import annotations

import json

import pytest

from core.mcp import load_servers, parse_server
from tests.conftest import provider_env, run_cli


def test_claude_code_shapes_and_variables(monkeypatch):
    monkeypatch.setenv("TOKEN", "fake-token")
    stdio = parse_server(
        "a", {"command": "npx", "args": ["-y", "x"], "env": {"K": "${TOKEN}"}}, "u"
    )
    assert (stdio.transport, stdio.command, stdio.args, stdio.env) == (
        "stdio",
        "npx",
        ("-y", "x"),
        {"K": "fake-token"},
    )
    http = parse_server("b", {"url": "http://h/mcp", "headers": {"A": "${NOPE:-none}"}}, "u")
    assert (http.transport, http.url, http.headers) == ("http", "http://h/mcp", {"A": "none"})
    sse = parse_server("c", {"type": "sse", "url": "http://h/sse"}, "u")
    assert (sse.transport, sse.url) == ("sse", "http://h/sse")


@pytest.mark.parametrize(
    "raw, problem",
    [
        ({"type": "sse"}, "needs a `url`"),
        ({"type": "http"}, "needs a `url`"),
        ({"args": ["x"]}, "needs a `command`"),
        ({"command": "x", "args": "x"}, "`args` must be a list"),
        ("npx", "must be an object"),
    ],
)
def test_malformed_entries_are_refused(raw, problem):
    with pytest.raises(ValueError, match=problem):
        parse_server("s", raw, "user")


def test_the_project_entry_wins_and_a_bad_one_is_one_warning(tmp_path, isolated_home):
    (isolated_home / "config.json").write_text(
        json.dumps({"mcpServers": {"x": {"command": "user-x"}, "y": {"command": "user-y"}}})
    )
    (tmp_path / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"x": {"command": "project-x"}, "bad": {"type": "sse"}}})
    )
    warnings: list[str] = []
    servers = load_servers(tmp_path, isolated_home, warnings.append)
    assert [(s.name, s.command, s.source) for s in servers] == [
        ("x", "project-x", "project"),
        ("y", "user-y", "user"),
    ]
    assert len(warnings) == 1 and "MCP server 'bad'" in warnings[0]


def test_a_broken_mcp_json_is_one_warning_and_the_task_runs(llm, workspace):
    (workspace / ".mcp.json").write_text("{not json")
    llm.reply("fine")
    proc = run_cli("--dir", str(workspace), "-p", "hi", env=provider_env(llm, "openai"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "fine"
    warnings = [line for line in proc.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and ".mcp.json not loaded" in warnings[0]
