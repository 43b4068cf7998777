"""The token ledger: a row per request through the real CLI, SDKs and scripted server."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from core.ledger import Filter, Ledger, LedgerRow, connect, grouped, insert_rows, totals
from core.ledger.report import GROUP_KEYS
from core.ledger.writer import COLUMNS, MIGRATIONS
from tests.conftest import ROOT, provider_env, run_cli
from tests.helpers.fake_llm import Disconnect, Reply

PRICES = json.loads((ROOT / "core" / "ledger" / "pricing.json").read_text())["models"]


def ledger_rows(home: Path) -> list[dict]:
    if not (home / "ledger.db").is_file():
        return []
    db = sqlite3.connect(home / "ledger.db")
    db.row_factory = sqlite3.Row
    try:
        return [dict(r) for r in db.execute("SELECT * FROM requests ORDER BY id")]
    finally:
        db.close()


def expected_cost(model: str, fresh: int, read: int, write: int, out: int) -> float:
    p = PRICES[model]
    return (
        fresh * p["input"] + read * p["cache_read"] + write * p["cache_write"] + out * p["output"]
    ) / 1e6


# provider → (raw usage as that provider sends it, expected (fresh, read, write, out, reasoning))
SHAPES = {
    "anthropic": (
        {
            "input_tokens": 120,
            "cache_creation_input_tokens": 300,
            "cache_read_input_tokens": 2000,
            "output_tokens": 50,
        },
        (120, 2000, 300, 50, 0),
    ),
    "zhipu": (
        {"input_tokens": 900, "cache_read_input_tokens": 600, "output_tokens": 40},
        (900, 600, 0, 40, 0),
    ),
    "openai": (
        {
            "prompt_tokens": 1500,
            "completion_tokens": 80,
            "total_tokens": 1580,
            "prompt_tokens_details": {"cached_tokens": 1024},
            "completion_tokens_details": {"reasoning_tokens": 30},
        },
        (476, 1024, 0, 80, 30),
    ),
    "openrouter": (
        {
            "prompt_tokens": 2100,
            "completion_tokens": 70,
            "total_tokens": 2170,
            "prompt_tokens_details": {"cached_tokens": 2000},
        },
        (100, 2000, 0, 70, 0),
    ),
    "deepseek": (
        {
            "prompt_tokens": 1000,
            "completion_tokens": 60,
            "total_tokens": 1060,
            "prompt_cache_hit_tokens": 640,
            "prompt_cache_miss_tokens": 360,
        },
        (360, 640, 0, 60, 0),
    ),
    "ollama": (
        {"prompt_tokens": 300, "completion_tokens": 20, "total_tokens": 320},
        (300, 0, 0, 20, 0),
    ),
}


@pytest.mark.parametrize("provider", sorted(SHAPES))
def test_row_per_request_for_each_provider_usage_shape(provider, llm, workspace, isolated_home):
    raw, (fresh, read, write, out, reasoning) = SHAPES[provider]
    llm.call("read_file", {"path": "missing.txt"}, raw_usage=raw)
    llm.reply("finished", raw_usage=raw)
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "look",
        "--provider",
        provider,
        env=provider_env(llm, provider),
    )
    assert proc.returncode == 0, proc.stderr

    rows = ledger_rows(isolated_home)
    assert len(rows) == 2
    first, second = rows
    assert first["session_id"] == second["session_id"] and first["task_id"] == second["task_id"]
    assert first["ts"] <= second["ts"]
    for row in rows:
        assert (
            row["input_tokens"],
            row["cache_read_tokens"],
            row["cache_write_tokens"],
            row["output_tokens"],
            row["reasoning_tokens"],
        ) == (fresh, read, write, out, reasoning)
        assert row["provider"] == provider and row["estimated"] == 0
        assert row["project"].startswith("project-")
        assert row["latency_ms"] > 0 and row["ttft_ms"] is not None
        assert row["ttft_ms"] <= row["latency_ms"]
        model = row["model"]
        assert row["cost_usd"] == pytest.approx(expected_cost(model, fresh, read, write, out))
    assert first["stop_reason"] in ("tool_calls", "tool_use")
    assert second["stop_reason"] in ("stop", "end_turn")


def test_a_local_server_costs_nothing(llm, workspace, isolated_home, capsys):
    llm.reply("hello", usage={"input": 400, "cache_read": 0, "cache_write": 0, "output": 9})
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "hi",
        "--provider",
        "openai-compatible",
        env=provider_env(llm, "openai-compatible"),
    )
    assert proc.returncode == 0, proc.stderr
    [row] = ledger_rows(isolated_home)
    assert row["model"] == "local-model" and row["input_tokens"] == 400
    assert row["cost_usd"] == 0.0


def test_gpt4o_on_a_local_base_url_is_not_priced_as_gpt4o(llm, workspace, isolated_home):
    """`--provider openai` pointed at a local server: the row is not gpt-4o's price."""
    llm.reply("hello", usage={"input": 400, "cache_read": 0, "cache_write": 0, "output": 9})
    env = {**provider_env(llm, "openai"), "UNICUM_PROVIDER_PRICES": ""}
    proc = run_cli("--dir", str(workspace), "-p", "hi", "--provider", "openai", env=env)
    assert proc.returncode == 0, proc.stderr
    [row] = ledger_rows(isolated_home)
    assert row["model"] == "gpt-4o" and row["cost_usd"] == 0.0


def test_price_mode_by_base_url():
    from core.model import ResolvedProvider, price_mode
    from core.model.providers import PROFILES

    def mode(name: str, url: str) -> str:
        return price_mode(ResolvedProvider(PROFILES[name], "m", url, "fake-k"))

    assert mode("openai", "https://api.openai.com/v1") == "priced"
    assert mode("openai", "http://127.0.0.1:8080/v1") == "local"
    assert mode("openai", "https://gpu-box.example.com/v1") == "unknown"
    assert mode("openai-compatible", "http://192.168.1.20:11434/v1") == "local"
    assert mode("deepseek", "https://api.deepseek.com") == "priced"


def test_user_price_file_overrides_and_adds_models(llm, workspace, isolated_home):
    (isolated_home / "pricing.json").write_text(
        json.dumps(
            {"models": {"local-model": {"input": 1.0, "output": 2.0, "source": "my contract"}}}
        )
    )
    llm.reply("hello", usage={"input": 1000, "cache_read": 500, "cache_write": 0, "output": 100})
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "hi",
        "--provider",
        "openai-compatible",
        env=provider_env(llm, "openai-compatible"),
    )
    assert proc.returncode == 0, proc.stderr
    [row] = ledger_rows(isolated_home)
    # cache reads default to the input price when the file does not give one
    assert row["cost_usd"] == pytest.approx((1000 * 1.0 + 500 * 1.0 + 100 * 2.0) / 1e6)


def test_broken_user_price_file_is_one_line(workspace, isolated_home, llm):
    (isolated_home / "pricing.json").write_text('{"models": {"x": {"input": "cheap"}}}')
    proc = run_cli(
        "--dir", str(workspace), "-p", "hi", "--provider", "openai", env=provider_env(llm, "openai")
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "pricing.json" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_interrupted_stream_is_recorded_as_local_estimate(llm, workspace, isolated_home):
    llm.add(Disconnect(Reply(text="partial answer " * 20, chunk_size=8), after_events=6))
    proc = run_cli(
        "--dir", str(workspace), "-p", "hi", "--provider", "openai", env=provider_env(llm, "openai")
    )
    assert proc.returncode == 1 and "broke off midway" in proc.stderr
    [row] = ledger_rows(isolated_home)
    assert row["estimated"] == 1 and row["stop_reason"] == "interrupted"
    assert row["output_tokens"] > 0
    assert row["input_tokens"] > 100  # system prompt + task, estimated locally
    assert row["cost_usd"] is not None and row["cost_usd"] > 0


def test_response_without_usage_falls_back_to_a_marked_estimate(llm, workspace, isolated_home):
    llm.reply("a reply of some words", raw_usage={"prompt_tokens": 0, "completion_tokens": 0})
    proc = run_cli(
        "--dir", str(workspace), "-p", "hi", "--provider", "ollama", env=provider_env(llm, "ollama")
    )
    assert proc.returncode == 0, proc.stderr
    [row] = ledger_rows(isolated_home)
    assert row["estimated"] == 1 and row["stop_reason"] == "stop"
    assert row["input_tokens"] > 100 and 3 <= row["output_tokens"] <= 10


def test_migrations_are_numbered_and_run_once(tmp_path):
    path = tmp_path / "ledger.db"
    db = connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()
    again = connect(path)  # a second open must not re-run them (CREATE TABLE would fail)
    assert again.execute("SELECT COUNT(*) FROM requests").fetchone()[0] == 0
    again.close()


def sample_rows(n: int) -> list[LedgerRow]:
    return [
        LedgerRow(
            1_700_000_000 + i * 5000,
            f"2026-01-{1 + i // 20:02d}",
            f"s{i // 7}",
            f"s{i // 7}/{i // 3}",
            f"p{i % 2}",
            "openai",
            ("gpt-4o", "o3", "x")[i % 3],
            100 + i,
            10 * i,
            i % 4,
            20,
            i % 3,
            10.0 + i,
            None,
            "stop",
            None if i % 5 == 0 else 0.001 * i,
            i % 11 == 0,
        )
        for i in range(n)
    ]


def test_rollup_answers_exactly_what_the_raw_rows_say(tmp_path):
    db = connect(tmp_path / "ledger.db")
    insert_rows(db, sample_rows(120))
    for by in GROUP_KEYS:
        for project in (None, "p1"):
            fast = [rounded(g.to_dict()) for g in grouped(db, by, Filter(project=project))]
            raw = [
                rounded(g.to_dict()) for g in grouped(db, by, Filter(since_ts=0, project=project))
            ]
            assert fast == raw and len(fast) > 1, by
    assert rounded(totals(db).to_dict()) == rounded(totals(db, Filter(since_ts=0)).to_dict())


def rounded(record: dict) -> dict:
    return {k: round(v, 9) if isinstance(v, float) else v for k, v in record.items()}


def old_ledger(path: Path, version: int, rows: list[LedgerRow]) -> None:
    """A ledger file as schema `version` left it, holding `rows`."""
    old = sqlite3.connect(path, isolation_level=None)
    for number, step in enumerate(MIGRATIONS[:version], start=1):
        step(old)
        old.execute(f"PRAGMA user_version = {number}")
    old.executemany(
        f"INSERT INTO requests ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
        [tuple(getattr(r, c) for c in COLUMNS) for r in rows],
    )
    old.close()


def test_a_newer_migration_backfills_an_older_ledger(tmp_path):
    path = tmp_path / "ledger.db"
    old_ledger(path, 2, sample_rows(40))  # a ledger from before the rollup
    db = connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    by_task = grouped(db, "task", Filter())
    assert by_task == grouped(db, "task", Filter(since_ts=0))
    assert sum(g.totals.requests for g in by_task) == 40


WRITER = """
import sys, time
from pathlib import Path
from core.ledger import Ledger, LedgerRow
ledger = Ledger(Path(sys.argv[1]), flush_interval=0.005)
for i in range(500):
    ledger.record(LedgerRow(time.time(), "2026-01-01", sys.argv[2], f"{sys.argv[2]}/{i}", "p",
                            "openai", "gpt-4o", i, 0, 0, 1, 0, 1.0, None, "stop", None, False))
    time.sleep(0.001)  # spread over ~1 s: about 100 small transactions interleave
ledger.close()
print("failures", ledger.failures)
"""


def test_two_processes_write_500_rows_each_without_lock_errors(tmp_path):
    path = tmp_path / "shared.db"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER, str(path), name],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    outputs = [p.communicate(timeout=60) for p in procs]
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err
        assert "failures 0" in out and "locked" not in err.lower(), err
    db = sqlite3.connect(path)
    counts = dict(
        db.execute("SELECT session_id, COUNT(DISTINCT task_id) FROM requests GROUP BY session_id")
    )
    assert counts == {"a": 500, "b": 500}


def _rows_so_far(home: Path) -> int:
    """Rows committed to the ledger now (0 while the file or its table is not there yet)."""
    try:
        return len(ledger_rows(home))
    except sqlite3.OperationalError:
        return 0


def test_sigkill_keeps_what_the_writer_flushed_as_the_session_ran(llm, workspace, isolated_home):
    # no stopwatch: the writer commits again and again while the session runs (never only
    # at exit), and every row seen committed before a SIGKILL is still there after it
    for i in range(200):  # distinct calls: the loop guard stops a model repeating one
        llm.call("read_file", {"path": f"missing{i}.txt"}, delay=0.02)  # >= 4 s in all
    env = {**os.environ, **provider_env(llm, "openai")}
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "cli.py"), "--dir", str(workspace), "-p", "loop",
         "--provider", "openai", "--max-turns", "300"],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    counts = [0]  # the committed rows each time their number changed
    for _ in range(6000):  # a hang-guard: a flush comes every second of the session
        if (seen := _rows_so_far(isolated_home)) != counts[-1]:
            counts.append(seen)
        if len(counts) >= 3 and seen >= 5 or proc.poll() is not None:
            break
        time.sleep(0.02)
    proc.kill()
    proc.wait()
    llm.steps.clear()  # the session was killed on purpose with steps left
    assert proc.returncode == -signal.SIGKILL, f"the session ended first; rows seen {counts}"
    assert len(counts) >= 3 and counts[-1] >= 5  # two flushes or more while it ran
    assert counts[-1] <= len(ledger_rows(isolated_home)) <= len(llm.requests)


def test_unwritable_ledger_keeps_rows_and_never_raises(tmp_path, capfd):
    path = tmp_path / "ledger.db"
    path.mkdir()  # a folder where the file should be: every write fails
    warnings: list[str] = []
    ledger = Ledger(path, flush_interval=3600, warn=warnings.append)
    rows = sample_rows(3)
    for r in rows[:2]:
        ledger.record(r)
    assert ledger.flush() == 0 and ledger.flush() == 0
    assert ledger.failures == 2
    assert len(warnings) == 1 and "cannot write" in warnings[0]
    assert capfd.readouterr() == ("", "")  # nothing printed into a live screen
    path.rmdir()  # fixed: the kept rows are written with the next ones
    ledger.record(rows[2])
    assert ledger.flush() == 3
    ledger.close()
    assert connect(path).execute("SELECT COUNT(*) FROM requests").fetchone()[0] == 3
