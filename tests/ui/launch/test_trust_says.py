"""Trust that says what it does: the question names everything a `y` enables, an untrusted
folder's skipped files are named in one line (-p, /mcp, /hooks, /cd), /trust and
`--trust-project` opt in; through the real CLI (the REPL in a pseudo-terminal)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import provider_env, run_cli
from tests.helpers.repl_driver import Repl


@pytest.fixture
def untrusted(workspace: Path, isolated_home: Path, tmp_path: Path) -> Path:
    (isolated_home / "trusted.json").unlink()
    marker = tmp_path / "HOOK-RAN"
    hook = {
        "hooks": [
            {
                "type": "command",
                "command": f"{sys.executable} -c \"open(r'{marker}', 'a').write('x')\"",
            }
        ]
    }
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text(
        json.dumps({"hooks": {"SessionStart": [hook]}})
    )
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {"srv": {"command": "true"}}}))
    return workspace


def test_the_question_names_all_a_yes_enables_and_the_repl_names_what_it_skips(
    llm, untrusted, tmp_path
):
    repl = Repl(
        "--dir",
        str(untrusted),
        "--provider",
        "openai",
        "--no-codemap",
        env=provider_env(llm, "openai"),
    )
    try:
        asked = repl.expect(r"Do you trust[\s\S]*?\[y/n\]").group(0)
        for word in (
            ".env",
            "@imports",
            "skills",
            "hooks",
            "MCP servers",
            "custom",
            "agents",
            "permission rules",
        ):
            assert word in asked.replace("\n", " "), word
        repl.child.send("n")
        repl.prompt()
        skipped = r"is not trusted, so its hooks and permission rules, MCP servers are not loaded \(/trust to trust it\)"
        repl.command("/hooks", skipped)
        repl.command("/mcp", skipped)
        assert not (tmp_path / "HOOK-RAN").exists()
        repl.command("/trust", r"trusted: .* \(remembered\); a new session loads it")
        repl.command("/hooks", r"SessionStart  .*HOOK-RAN")
        assert (tmp_path / "HOOK-RAN").exists()  # the new session ran its SessionStart hook
        repl.command("/clear", r"new session")
        repl.send("/exit")
        repl.wait_exit()
    finally:
        repl.close()


def test_cd_into_an_untrusted_folder_says_what_it_skips(llm, workspace, tmp_path):
    other = tmp_path / "elsewhere" / "repo"
    (other / ".claude" / "commands").mkdir(parents=True)
    (other / ".claude" / "commands" / "x.md").write_text("do x\n")
    (tmp_path / "unicum-home" / "trusted.json").write_text(
        json.dumps({"folders": [str(workspace)]})
    )
    repl = Repl(
        "--dir",
        str(workspace),
        "--provider",
        "openai",
        "--no-codemap",
        env=provider_env(llm, "openai"),
    )
    try:
        repl.prompt()
        repl.command(f"/cd {other}", r"is not trusted, so its custom commands are not loaded")
        repl.send("/exit")
        repl.wait_exit()
    finally:
        repl.close()


def test_print_mode_names_what_it_skips_and_trust_project_opts_in(llm, untrusted, tmp_path):
    llm.reply("ok")
    env = provider_env(llm, "openai")
    proc = run_cli("--dir", str(untrusted), "-p", "hi", "--provider", "openai", env=env)
    assert proc.returncode == 0, proc.stderr
    line = "is not a trusted folder, so its hooks and permission rules, MCP servers are not loaded (--trust-project to trust it for this run)"
    assert proc.stderr.count(line) == 1, proc.stderr
    assert not (tmp_path / "HOOK-RAN").exists()
    llm.reply("ok")
    proc = run_cli(
        "--dir", str(untrusted), "-p", "hi", "--provider", "openai", "--trust-project", env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "HOOK-RAN").exists() and "not a trusted folder" not in proc.stderr
    from my_agent.trust import is_trusted

    assert not is_trusted(untrusted, tmp_path / "unicum-home")  # for this run only


def test_a_project_mcp_server_is_asked_once_with_its_command(llm, workspace, isolated_home):
    from tests.helpers.mcp_helpers import stdio_entry, write_servers

    write_servers(workspace / ".mcp.json", {"srv": stdio_entry()})
    args = ("--dir", str(workspace), "--provider", "openai", "--no-codemap")
    env = provider_env(llm, "openai")
    repl = Repl(*args, env=env)
    try:
        repl.expect(
            r"This project's \.mcp\.json starts the MCP server 'srv': .*mcp_server\.py stdio\. Start it\? \[y/n\]"
        )
        repl.child.send("n")
        repl.expect(r"not started: 'srv'")
        repl.prompt()
        repl.command("/mcp", r"No MCP servers configured")
        repl.send("/exit")
        repl.wait_exit()
    finally:
        repl.close()
    repl = Repl(*args, env=env)
    try:
        repl.prompt()  # remembered: not asked again
        assert "Start it?" not in repl.text
        repl.send("/exit")
        repl.wait_exit()
    finally:
        repl.close()
    saved = json.loads((isolated_home / "mcp-approvals.json").read_text())
    (answers,) = saved.values()
    assert answers["srv"]["start"] is False and "mcp_server.py" in answers["srv"]["target"]
