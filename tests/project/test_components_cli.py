"""`python -m core.memory|core.ledger|core.codemap` run on their own, as a person would."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.ledger import LedgerRow, connect, insert_rows, local_day
from core.memory import MemoryStore
from my_agent.home import project_id
from tests.conftest import ROOT


def run_module(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def remembered(isolated_home: Path, workspace: Path) -> Path:
    store = MemoryStore(isolated_home, workspace)
    store.add("project", "commands", "run the tests with pytest -q")
    store.add("global", "user", "prefers short answers")
    return workspace


@pytest.mark.parametrize("order", ["dir-first", "dir-last"])
def test_memory_list_accepts_dir_before_or_after_the_action(remembered, order):
    where = ["--dir", str(remembered)]
    proc = run_module(
        "core.memory", *(where + ["list"] if order == "dir-first" else ["list"] + where)
    )
    assert proc.returncode == 0, proc.stderr
    assert "project commands    run the tests with pytest -q" in proc.stdout
    assert "global  user        prefers short answers" in proc.stdout
    assert proc.stdout.rstrip().endswith("2 entries")


def test_memory_search_show_and_forget(remembered):
    where = ("--dir", str(remembered))
    found = json.loads(run_module("core.memory", "search", "pytest", "--json", *where).stdout)
    assert found[0]["content"] == "run the tests with pytest -q"
    shown = run_module("core.memory", "show", found[0]["id"], *where).stdout
    assert "type       commands" in shown and f"id         {found[0]['id']}" in shown
    forgot = run_module("core.memory", "forget", "short answers", *where)
    assert forgot.stdout.startswith("forgot note:prefers-short-answers"), forgot.stderr
    left = json.loads(run_module("core.memory", "list", "--json", *where).stdout)
    assert [e["content"] for e in left] == ["run the tests with pytest -q"]
    missing = run_module("core.memory", "show", "nothing like it", *where)
    assert missing.returncode == 1 and "no single memory entry" in missing.stderr


def test_memory_list_imports_no_terminal_ui_agent_or_ui(remembered):
    code = (
        "import runpy, sys; sys.argv = ['core.memory', 'list', '--dir', sys.argv[1]]\n"
        "try: runpy.run_module('core.memory', run_name='__main__', alter_sys=True)\n"
        "except SystemExit: pass\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('rich', 'prompt_toolkit', "
        "'ui', 'tools') or m.startswith('core.agent'))\n"
        "print('LOADED', bad, 'core.memory' in sys.modules)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(remembered)], cwd=ROOT, capture_output=True, text=True
    )
    assert "run the tests with pytest -q" in proc.stdout, proc.stderr
    assert "LOADED [] True" in proc.stdout, proc.stdout + proc.stderr


def request(workspace: Path, days_ago: int) -> LedgerRow:
    ts = time.time() - 86400 * days_ago
    session = f"s{days_ago}"
    return LedgerRow(
        ts, local_day(ts), session, f"{session}/1", project_id(workspace), "openai", "gpt-4o",
        1000, 500, 0, 200, 0, 100.0, None, "end", 0.01, False,
    )  # fmt: skip


def test_ledger_report_by_day_session_and_model(isolated_home, workspace):
    db = connect(isolated_home / "ledger.db")
    insert_rows(db, [request(workspace, d) for d in range(3)])
    db.close()
    now = time.time()
    by_day = run_module("core.ledger", "--by", "day").stdout.splitlines()
    assert by_day[0].split()[:3] == ["day", "requests", "input"] and "cache hit" in by_day[0]
    assert [line.split()[0] for line in by_day[2:5]] == [
        local_day(now - 86400 * d) for d in (2, 1, 0)
    ]
    assert by_day[-1].split() == ["total", "3", "3,000", "1,500", "0", "600", "33%", "$0.0300"]
    report = json.loads(run_module("core.ledger", "report", "--by", "model", "--json").stdout)
    assert [g["key"] for g in report["groups"]] == ["openai:gpt-4o"]
    assert report["totals"]["total_tokens"] == 5100
    sessions = run_module("core.ledger", "--by", "session", "--dir", str(workspace)).stdout
    assert {line.split()[0] for line in sessions.splitlines()} >= {"s0", "s1", "s2", "total"}
    elsewhere = run_module("core.ledger", "--by", "session", "--dir", str(ROOT)).stdout
    assert elsewhere.startswith("no model requests recorded")


def test_codemap_build_stats_and_questions(workspace):
    (workspace / "app.py").write_text(
        "def helper(x):\n    return x + 1\n\n\ndef main():\n    return helper(2)\n"
    )
    (workspace / "use.py").write_text("from app import helper\n\nprint(helper(3))\n")
    where = ("--dir", str(workspace))
    built = run_module("core.codemap", *where, "build")
    assert built.returncode == 0, built.stderr
    assert built.stdout.startswith(f"{workspace.resolve()}: 2 files; parsed 2")
    stats = json.loads(run_module("core.codemap", "stats", "--json", *where).stdout)
    assert (stats["files"], stats["symbols"], stats["languages"]) == (2, 2, [["python", 2, 9]])
    assert (
        "app.py:1-2 function helper" in run_module("core.codemap", "def", "helper", *where).stdout
    )
    refs = run_module("core.codemap", "refs", "helper", *where).stdout
    assert "use.py:3" in refs and "app.py:6 in main" in refs
    assert "app.py:6 main" in run_module("core.codemap", "impact", "helper", *where).stdout
    outline = run_module("core.codemap", "outline", "app.py", *where).stdout
    assert outline.splitlines() == ["app.py: 2 symbols", "1-2 def helper(x)", "5-6 def main()"]
    missing = run_module("core.codemap", "stats", "--dir", str(workspace / "nope"))
    assert missing.returncode == 2 and "not a folder" in missing.stderr
