"""Budgets: warnings at 60% / 80%, no model call at 100%, extending in the REPL, -p exit codes."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import sys
import time
from pathlib import Path

import pytest

from core.ledger import BudgetGuard, Ledger, LedgerRow, Limit, local_day, parse_limits
from my_agent.errors import BudgetExceeded, ConfigError
from my_agent.messages import Message, ModelResponse, Usage
from tests.conftest import ROOT, provider_env, run_cli


def usage(fresh: int, out: int) -> dict[str, int]:
    return {"input": fresh, "cache_read": 0, "cache_write": 0, "output": out}


def row_count(home: Path) -> int:
    db = sqlite3.connect(home / "ledger.db")
    try:
        return db.execute("SELECT COUNT(*) FROM requests").fetchone()[0]
    finally:
        db.close()


def test_print_mode_warns_at_60_and_80_then_stops_before_the_next_call(
    llm, workspace, isolated_home
):
    llm.call("read_file", {"path": "a.txt"}, usage=usage(300, 20))  # 320 of 1000
    llm.call("read_file", {"path": "b.txt"}, usage=usage(400, 20))  # 740
    llm.call("read_file", {"path": "c.txt"}, usage=usage(500, 20))  # never sent: would pass
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "work",
        "--provider",
        "openai",
        "--budget-tokens",
        "1000",
        env=provider_env(llm, "openai"),
    )
    llm.steps.clear()  # the third reply is never asked for
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    assert (
        "warning: 60% of the session budget used: 320 tokens of 1,000 tokens (the next model "
        "call would make it ~660 tokens)" in proc.stderr
    )
    assert (
        "warning: 80% of the session budget used: 740 tokens of 1,000 tokens (the next model "
        "call would make it ~1,180 tokens)" in proc.stderr
    )
    assert proc.stderr.strip().splitlines()[-1] == (
        "unicum: budget reached: this session used 740 tokens of 1,000 tokens and the next "
        "model call (~440 tokens) would pass it, so it was not made (raise it with "
        "--budget-tokens)"
    )
    assert len(llm.requests) == 2  # the spend never passed the budget
    assert row_count(isolated_home) == 2


def test_usd_budget_stops_before_passing_it_with_the_80_percent_warning(llm, workspace):
    # the run: --budget-usd 0.005 went on to $0.0081; gpt-4o: $2.50/M in, $10/M out
    llm.call("read_file", {"path": "a.txt"}, usage=usage(1200, 40))  # $0.0034
    llm.call("read_file", {"path": "b.txt"}, usage=usage(1800, 40))  # never sent
    proc = run_cli(
        "--dir", str(workspace), "-p", "work", "--provider", "openai", "--model", "gpt-4o",
        "--budget-usd", "0.005", env=provider_env(llm, "openai"),
    )  # fmt: skip
    llm.steps.clear()
    assert proc.returncode == 1 and len(llm.requests) == 1
    assert "warning: 80% of the session budget used: $0.0034 of $0.0050" in proc.stderr
    assert "the next model call (~$0.0035) would pass it, so it was not made" in proc.stderr


def test_print_mode_usd_budget_uses_prices(llm, workspace):
    llm.call("read_file", {"path": "a.txt"}, usage=usage(4400, 0))  # gpt-4o: $0.0110
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "work",
        "--provider",
        "openai",
        "--budget-usd",
        "0.01",
        env=provider_env(llm, "openai"),
    )
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1] == (
        "unicum: budget reached: this session used $0.0110 of $0.0100; the next model call was "
        "not made (raise it with --budget-usd)"
    )
    assert len(llm.requests) == 1


def test_day_budget_from_config_counts_other_sessions_today(llm, workspace, isolated_home):
    (isolated_home / "config.json").write_text(json.dumps({"budget": {"day": {"usd": 0.5}}}))
    ledger = Ledger(isolated_home / "ledger.db")
    now = time.time()
    for ts, cost in ((now - 3 * 86400, 9.0), (now, 0.3), (now, 0.2)):  # an older day, then today
        ledger.record(
            LedgerRow(
                ts,
                local_day(ts),
                "earlier-session",
                "earlier-session/1",
                "p",
                "openai",
                "gpt-4o",
                10,
                0,
                0,
                10,
                0,
                5.0,
                None,
                "stop",
                cost,
                False,
            )
        )
    ledger.close()
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "work",
        "--provider",
        "openai",
        env=provider_env(llm, "openai"),
    )
    assert proc.returncode == 1
    assert proc.stderr.strip() == (
        "unicum: budget reached: today used $0.5000 of $0.5000; the next model call was not "
        "made (raise it with config.json budget.day.usd)"
    )
    assert llm.requests == []


def test_flag_wins_over_config_and_bad_values_are_one_line(llm, workspace, isolated_home):
    (isolated_home / "config.json").write_text(json.dumps({"budget": {"week": {"usd": 1}}}))
    proc = run_cli(
        "--dir", str(workspace), "-p", "x", "--provider", "openai", env=provider_env(llm, "openai")
    )
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1
    assert 'budget."week"' in proc.stderr and "Traceback" not in proc.stderr
    proc = run_cli("--dir", str(workspace), "-p", "x", "--budget-usd", "-1")
    assert proc.returncode == 2 and "must be positive" in proc.stderr
    limits = parse_limits({"budget": {"session": {"usd": 5, "tokens": 100}}}, usd=1.0)
    assert {(x.scope, x.metric, x.amount, x.origin) for x in limits} == {
        ("session", "usd", 1.0, "--budget-usd"),
        ("session", "tokens", 100.0, "config.json budget.session.tokens"),
    }
    with pytest.raises(ConfigError):
        parse_limits({"budget": {"task": {"usd": 0}}})


def response(fresh: int, out: int = 0) -> ModelResponse:
    return ModelResponse(Message("assistant"), Usage(input=fresh, output=out), model="m")


def test_task_budget_resets_per_task_and_extends():
    warnings = []
    guard = BudgetGuard(
        [Limit("task", "tokens", 1000, "--budget-tokens")],
        measure=lambda r: (r.usage, None),
        notify=warnings.append,
    )
    guard.on_task_start("one")
    guard.before_request(1)
    guard.on_response(response(700))
    assert [w.fraction for w in warnings] == [0.6]
    guard.on_task_start("two")  # a new task starts from zero
    guard.before_request(1)  # the estimate (~700, like the last request) crosses 60% again
    assert warnings[-1].text.endswith("(the next model call would make it ~700 tokens)")
    guard.on_response(response(300))
    guard.before_request(2)
    guard.on_response(response(650))  # 950 of 1000
    assert [w.fraction for w in warnings] == [0.6, 0.6, 0.8]
    with pytest.raises(BudgetExceeded) as stop:
        guard.before_request(3)  # 950 + ~650 would pass 1000: refused before it is sent
    assert (stop.value.scope, stop.value.metric, stop.value.spent) == ("task", "tokens", 950)
    assert "the next model call (~650 tokens) would pass it" in str(stop.value)
    stop.value.extend(1000)
    guard.before_request(3)  # allowed now: ~1600 of 2000
    assert [w.fraction for w in warnings] == [0.6, 0.6, 0.8, 0.8]


def strip_ansi(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def test_repl_asks_to_extend_and_stops_when_declined(llm, workspace, isolated_home):
    import pexpect

    llm.call("read_file", {"path": "x.txt"}, usage=usage(1100, 100))  # 1200 of 1000
    llm.reply("all done", usage=usage(600, 10))  # after +5000: 1810 of 6000
    llm.reply("second done", usage=usage(1900, 100))  # 3810: 60% warning
    llm.reply("third done", usage=usage(2300, 100))  # 6210: over
    env = {
        **os.environ,
        **provider_env(llm, "openai"),
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm",
    }
    child = pexpect.spawn(
        sys.executable,
        [
            str(ROOT / "cli.py"),
            "--dir",
            str(workspace),
            "--provider",
            "openai",
            "--budget-tokens",
            "1000",
        ],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 200),
    )
    try:
        child.expect("unicum>")
        child.sendline("do it")
        child.expect(r"Extend the session budget\?")
        assert "used 1,200 tokens of 1,000 tokens" in strip_ansi(child.before)
        assert len(llm.requests) == 1
        child.expect(r"\[y\] by 1,000 tokens · \[o\] another amount · \[n\] stop here")
        child.send("o")  # one key, then the amount typed
        child.expect(r"how much\?")
        child.sendline("lots")
        child.expect("not an amount")
        child.expect(r"how much\?")
        child.sendline("5000")
        child.expect("all done")
        child.expect("unicum>")
        child.sendline("more")
        child.expect("60% of the session budget used: 3,810 tokens of 6,000 tokens")
        child.expect("unicum>")
        child.sendline("again")
        child.expect("third done")
        child.expect("unicum>")
        child.sendline("last")
        child.expect(r"Extend the session budget\?")
        child.send("n")  # one key
        child.expect("no further model call was made")
        child.expect("unicum>")
        child.sendline("/quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    assert len(llm.requests) == 4
    resumed = llm.requests[1].body["messages"]  # the same task went on: its tool result is last
    assert resumed[-1]["role"] == "tool" and resumed[-3]["content"] == "do it"
    db = sqlite3.connect(isolated_home / "ledger.db")
    tasks = [t for (t,) in db.execute("SELECT task_id FROM requests ORDER BY id")]
    assert len(tasks) == 4 and tasks[0] == tasks[1]  # the extended task kept its id
    assert len(set(tasks)) == 3


def test_repl_ctrl_c_mid_stream_records_an_estimated_row(llm, workspace, isolated_home):
    import pexpect

    llm.reply("streaming slowly " * 300, chunk_size=6, delay=0.1)  # 85 s: cut mid-stream
    env = {
        **os.environ,
        **provider_env(llm, "openai"),
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm",
    }
    child = pexpect.spawn(
        sys.executable,
        [str(ROOT / "cli.py"), "--dir", str(workspace), "--provider", "openai"],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=60,
    )
    try:
        child.expect("unicum>")
        child.sendline("talk")
        child.expect("slowly streaming slowly")
        child.sendintr()
        child.expect("interrupted")
        child.expect("unicum>")
        child.sendline("/quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    db = sqlite3.connect(isolated_home / "ledger.db")
    [(estimated, stop, output, fresh)] = db.execute(
        "SELECT estimated, stop_reason, output_tokens, input_tokens FROM requests"
    ).fetchall()
    assert (estimated, stop) == (1, "interrupted")
    assert 0 < output < 450 and fresh > 100  # under half of the reply's 900 tokens streamed
