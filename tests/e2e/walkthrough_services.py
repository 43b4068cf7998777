"""The walk-through's steps outside the REPL (docs/walkthrough.md, sections 1 and 7-10): set-up
checks, `-p` JSON, an MCP server, `unicum serve` with its dashboard in Chromium, and the team
database on a real PostgreSQL."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.conftest import provider_env, run_cli
from tests.core.dashboard.test_dashboard import CHARTS
from tests.helpers.fake_llm import ScriptedLLM
from tests.helpers.mcp_helpers import SERVER
from tests.helpers.serve_helpers import start_server


def cli(llm: ScriptedLLM, workspace: Path, *args: str, env: dict[str, str] | None = None):
    full = {**provider_env(llm, "anthropic"), **(env or {})}
    return run_cli("--dir", str(workspace), "--provider", "anthropic", *args, env=full)


def set_up() -> None:
    """1. The install works: the version, and the help that lists every flag."""
    version = run_cli("--version")
    assert version.returncode == 0 and version.stdout.startswith("unicum ")
    helped = run_cli("--help")
    assert "--permission-mode" in helped.stdout and "--continue" in helped.stdout


def headless_json(llm: ScriptedLLM, workspace: Path) -> dict:
    """7. One task without the REPL: `-p` with Claude Code's JSON result."""
    llm.reply("hello.py prints hello.", usage={"input": 900, "output": 12})
    proc = cli(llm, workspace, "-p", "what does hello.py do?", "--output-format", "json")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["type"] == "result" and result["result"] == "hello.py prints hello."
    assert result["usage"]["input"] == 900 and result["session_id"]
    return result


def mcp(llm: ScriptedLLM, workspace: Path) -> None:
    """8. An MCP server: `unicum mcp add`, `unicum mcp list`, then the model calls its tool."""
    added = run_cli("mcp", "--dir", str(workspace), "add", "notes", sys.executable, SERVER)
    assert added.returncode == 0, added.stderr
    listed = run_cli("mcp", "--dir", str(workspace), "list")
    assert "notes" in listed.stdout, listed.stdout
    llm.call("mcp__notes__echo", {"text": "from the walk-through"})
    llm.reply("the server echoed.")
    slow = {"UNICUM_MCP_TIMEOUT": "60"}  # a busy machine: the SDK takes a while to start
    proc = cli(llm, workspace, "-p", "echo something through notes", "--yes", env=slow)
    assert proc.returncode == 0 and proc.stdout.strip() == "the server echoed.", proc.stderr
    results = [
        b["content"]
        for m in llm.requests[-1].body["messages"]
        if isinstance(m["content"], list)
        for b in m["content"]
        if b.get("type") == "tool_result"
    ]
    assert any("from the walk-through" in json.dumps(r) for r in results), results


def dashboard(browser, home: Path, task_text: str, tmp_path: Path) -> None:
    """9. `unicum serve`, and its dashboard in a real browser."""
    server = start_server(home)
    try:
        page = browser.new_page(viewport={"width": 1400, "height": 1800})
        page.goto(f"{server.url}/dashboard?token={server.token}")
        page.wait_for_function(
            f"document.querySelectorAll('.js-plotly-plot').length === {len(CHARTS)}"
        )
        assert task_text in page.inner_text("#tasks")
        page.screenshot(path=str(tmp_path / "walkthrough-dashboard.png"), full_page=True)
    finally:
        server.stop()


def team(llm: ScriptedLLM, workspace: Path, url: str) -> None:
    """10. Team mode: the ledger and memory in PostgreSQL (`UNICUM_DATABASE_URL`)."""
    env = {"UNICUM_DATABASE_URL": url, "UNICUM_USER": "ada"}
    llm.reply("noted.", usage={"input": 500, "output": 5})
    proc = cli(llm, workspace, "-p", "a task for the team ledger", env=env)
    assert proc.returncode == 0, proc.stderr
    report = run_cli("usage", "--by", "user", "--json", env=env)
    assert report.returncode == 0, report.stderr
    users = {g["key"]: g for g in json.loads(report.stdout)["groups"]}
    assert users["ada"]["requests"] == 1, users
