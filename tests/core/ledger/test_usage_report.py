"""`cli.py usage` and the REPL's session report, over a ledger written through the Ledger API."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from rich.console import Console

from core.ledger import Ledger, LedgerRow, local_day
from my_agent.home import project_id
from tests.conftest import run_cli
from ui.subcommands.usage import main, session_report

NOW = time.time()


def row(
    ago: float,
    session: str,
    task: int,
    project: str,
    provider: str,
    model: str,
    tokens: tuple[int, int, int, int],
    cost: float | None,
    estimated: bool = False,
):
    ts = NOW - ago
    return LedgerRow(
        ts,
        local_day(ts),
        session,
        f"{session}/{task}",
        project,
        provider,
        model,
        *tokens,
        0,
        900.0,
        300.0,
        "stop",
        cost,
        estimated,
    )


@pytest.fixture
def ledger_data(isolated_home, tmp_path) -> dict[str, Path]:
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    p1, p2 = project_id(one), project_id(two)
    ledger = Ledger(isolated_home / "ledger.db")
    for r in (
        row(10 * 86400, "s0", 1, p1, "deepseek", "deepseek-chat", (100, 900, 0, 10), 0.001),
        row(2 * 86400, "s1", 1, p1, "openai", "gpt-4o", (1000, 3000, 0, 100), 0.010),
        row(2 * 86400 - 5, "s1", 1, p1, "openai", "gpt-4o", (500, 500, 0, 50), 0.005),
        row(3600, "s2", 1, p2, "anthropic", "claude-sonnet-4-20250514", (200, 0, 800, 20), 0.004),
        row(3500, "s2", 2, p2, "openai-compatible", "local-model", (300, 0, 0, 30), None, True),
    ):
        ledger.record(r)
    ledger.close()
    return {"one": one, "two": two}


def report(capsys, *argv: str) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def by_key(data: dict) -> dict[str, dict]:
    return {g["key"]: g for g in data["groups"]}


def test_grouped_by_session_task_day_and_model(ledger_data, capsys):
    sessions = report(capsys, "--by", "session")
    assert list(by_key(sessions)) == ["s0", "s1", "s2"]  # oldest first
    s1 = by_key(sessions)["s1"]
    assert (s1["requests"], s1["input_tokens"], s1["cache_read_tokens"], s1["output_tokens"]) == (
        2,
        1500,
        3500,
        150,
    )
    assert s1["cache_hit_rate"] == 0.7 and s1["cost_usd"] == pytest.approx(0.015)
    s2 = by_key(sessions)["s2"]
    assert s2["unpriced"] == 1 and s2["estimated"] == 1 and s2["cost_usd"] == pytest.approx(0.004)

    tasks = report(capsys, "--by", "task")
    assert list(by_key(tasks)) == ["s0/1", "s1/1", "s2/1", "s2/2"]
    assert by_key(tasks)["s2/2"]["cost_usd"] is None

    days = report(capsys, "--by", "day")
    assert [g["key"] for g in days["groups"]] == sorted(
        {local_day(NOW - a) for a in (10 * 86400, 2 * 86400, 3600, 3500)}
    )
    assert sum(g["requests"] for g in days["groups"]) == 5

    models = by_key(report(capsys, "--by", "model"))
    assert set(models) == {
        "deepseek:deepseek-chat",
        "openai:gpt-4o",
        "anthropic:claude-sonnet-4-20250514",
        "openai-compatible:local-model",
    }
    assert models["openai:gpt-4o"]["requests"] == 2
    assert models["anthropic:claude-sonnet-4-20250514"]["cache_write_tokens"] == 800

    everything = report(capsys)
    assert everything["totals"]["requests"] == 5
    assert everything["totals"]["cost_usd"] == pytest.approx(0.020)
    assert everything["totals"]["total_tokens"] == 100 + 900 + 10 + 1500 + 3500 + 150 + 1020 + 330


def test_since_and_project_filters(ledger_data, capsys):
    recent = report(capsys, "--by", "session", "--since", "7d")
    assert list(by_key(recent)) == ["s1", "s2"]
    last_day = report(capsys, "--by", "session", "--since", "1d")
    assert list(by_key(last_day)) == ["s2"]
    one = report(capsys, "--by", "session", "--project", str(ledger_data["one"]))
    assert list(by_key(one)) == ["s0", "s1"]
    both = report(capsys, "--by", "task", "--since", "7d", "--project", str(ledger_data["two"]))
    assert list(by_key(both)) == ["s2/1", "s2/2"]


def test_text_report_has_table_cache_rate_and_daily_chart(ledger_data, capsys):
    assert main(["--by", "session"]) == 0
    out = capsys.readouterr().out
    assert "Token use by session" in out and "cache hit" in out
    assert "70%" in out  # s1: 3500 cached of 5000 prompt tokens
    assert "1 estimated, 1 unpriced" in out and "$0.0150" in out
    assert "Daily spend" in out
    bars = [line for line in out.splitlines() if "█" in line]
    assert len(bars) == 3
    widest = max(bars, key=lambda line: line.count("█"))
    assert "$0.0150" in widest  # the day with the most spend has the longest bar


def test_unknown_cost_and_empty_ledger(isolated_home, capsys):
    assert main(["--by", "day"]) == 0
    assert "No model requests recorded yet" in capsys.readouterr().out
    ledger = Ledger(isolated_home / "ledger.db")
    ledger.record(row(60, "s9", 1, "p", "openai-compatible", "local-model", (5, 0, 0, 5), None))
    ledger.close()
    assert main(["--by", "model"]) == 0
    out = capsys.readouterr().out
    assert "unknown" in out and "Daily tokens" in out  # no price: the chart shows tokens


def test_bad_since_is_a_clear_error():
    proc = run_cli("usage", "--since", "yesterday")
    assert proc.returncode == 2
    assert "use a span like 7d" in proc.stderr and "Traceback" not in proc.stderr


def test_session_report_flushes_this_process_first(isolated_home):
    ledger = Ledger(isolated_home / "ledger.db", flush_interval=3600)  # never flushes by itself
    ledger.record(row(5, "live", 1, "p", "openai", "gpt-4o", (1200, 800, 0, 60), 0.004))
    ledger.record(row(4, "live", 2, "p", "openai", "gpt-4o", (100, 1900, 0, 10), 0.001))
    ledger.record(row(3, "other", 1, "p", "openai", "gpt-4o", (9, 9, 9, 9), 0.9))
    out = io.StringIO()
    totals = session_report(Console(file=out, width=160), "live")
    ledger.close()
    assert (totals.requests, totals.cache_read_tokens) == (2, 2700)
    assert totals.cost_usd == pytest.approx(0.005)
    text = out.getvalue()
    assert "live/1" in text and "live/2" in text and "other" not in text
    assert "68%" in text  # 2700 of 4000 prompt tokens came from the cache
