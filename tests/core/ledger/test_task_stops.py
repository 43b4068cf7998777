"""How each task ended is in the ledger (SQLite and the team's PostgreSQL) and shown by
`unicum usage tasks` and `/usage tasks`; ledgers from before it upgrade in place."""

from __future__ import annotations

import json
import sqlite3

import psycopg

from core.ledger.pg import MIGRATIONS as PG_MIGRATIONS
from core.ledger.pg import m001_requests as pg_m001
from core.ledger.writer import COLUMNS, MIGRATIONS
from tests.conftest import provider_env, run_cli
from tests.core.ledger.test_ledger import old_ledger, sample_rows
from tests.helpers import pg_server as pg
from tests.helpers.repl_driver import Repl

pg_server, pg_url = pg.pg_server, pg.pg_url  # the fixtures
USAGE = {"input": 100, "cache_read": 0, "cache_write": 0, "output": 10}


def task(llm, workspace, *extra: str, env: dict | None = None) -> dict:
    proc = run_cli(
        "--dir", str(workspace), "-p", "look at a.py", "--provider", "openai",
        "--output-format", "json", "--no-codemap", *extra,
        env={**provider_env(llm, "openai"), **(env or {})},
    )  # fmt: skip
    return json.loads(proc.stdout.strip().splitlines()[-1])


def three_tasks(llm, workspace, env: dict | None = None) -> list[str]:
    """One task ending each way: done, max_turns, repeated; their session ids."""
    (workspace / "a.py").write_text("x = 1\n")
    llm.reply("a.py sets x", usage=USAGE)
    done = task(llm, workspace, env=env)
    llm.call("read_file", {"path": "a.py"}, usage=USAGE)
    llm.call("list_files", {}, usage=USAGE)
    turns = task(llm, workspace, "--max-turns", "2", env=env)
    for _ in range(5):
        llm.call("read_file", {"path": "a.py"}, usage=USAGE)
    repeated = task(llm, workspace, env=env)
    assert [done["stop"], turns["stop"], repeated["stop"]] == ["done", "max_turns", "repeated"]
    return [done["session_id"], turns["session_id"], repeated["session_id"]]


def usage_tasks(env: dict | None = None) -> list[dict]:
    proc = run_cli("usage", "tasks", "--json", env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["groups"]


def test_usage_tasks_shows_how_each_task_ended(llm, workspace):
    sessions = three_tasks(llm, workspace)
    groups = usage_tasks()
    assert [(g["key"], g["stop"], g["requests"]) for g in groups] == [
        (f"{sessions[0]}/1", "done", 1),
        (f"{sessions[1]}/1", "max_turns", 2),
        (f"{sessions[2]}/1", "repeated", 5),
    ]
    assert {g["task"] for g in groups} == {"look at a.py"}  # what the user typed
    text = run_cli("usage", "--by", "task").stdout
    rows = [line for line in text.splitlines() if "look at a.py" in line]  # text, not the id
    assert ["done" in rows[0], "max_turns" in rows[1], "repeated" in rows[2]] == [True] * 3
    assert "stop" in text.splitlines()[2] and "notes" not in text  # no empty notes column


def test_slash_usage_tasks_has_a_stop_column(llm, workspace):
    (workspace / "a.py").write_text("x = 1\n")
    llm.reply("first answer", usage=USAGE)
    for _ in range(5):
        llm.call("read_file", {"path": "a.py"}, usage=USAGE)
    repl = Repl(
        "--dir", str(workspace), "--provider", "openai", "--no-codemap",
        env=provider_env(llm, "openai"), columns=100,
    )  # fmt: skip
    try:
        repl.prompt()
        repl.send("say hello")
        repl.expect("first answer")
        repl.prompt()
        repl.send("read a.py again and again")
        repl.expect("same read_file call")
        repl.prompt()
        mark = repl.pos
        repl.command("/usage tasks", r"total\s+6\s")
        table = repl.text[mark : repl.pos]
        assert "stop" in table
        assert any("say hello" in line and " done " in line for line in table.splitlines())
        assert any("read a.py again" in line and "repeated" in line for line in table.splitlines())
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()


def test_an_old_ledger_upgrades_in_place_and_keeps_its_rows(llm, workspace, isolated_home):
    path = isolated_home / "ledger.db"
    old_ledger(path, 3, sample_rows(40))  # before task stops were kept
    (workspace / "a.py").write_text("x = 1\n")
    llm.reply("a.py sets x", usage=USAGE)
    new = task(llm, workspace)
    assert new["stop"] == "done"
    groups = usage_tasks()
    assert sum(g["requests"] for g in groups) == 41  # the 40 old rows kept, one new
    assert {g["stop"] for g in groups if g["key"] != f"{new['session_id']}/1"} == {""}
    assert groups[-1]["key"] == f"{new['session_id']}/1" and groups[-1]["stop"] == "done"
    text = run_cli("usage", "tasks", "--limit", "100").stdout
    assert text.count(" ? ") >= 1  # an old task: how it ended was never recorded
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    db.close()


def test_team_ledger_keeps_stops_and_an_old_schema_upgrades(llm, workspace, pg_url):
    with psycopg.connect(pg_url, autocommit=True) as conn:  # a team ledger of schema 1
        with conn.transaction():
            pg_m001(conn)
            conn.execute("CREATE TABLE unicum_schema (component TEXT PRIMARY KEY, version INT)")
            conn.execute("INSERT INTO unicum_schema VALUES ('ledger', 1)")
            cols = ", ".join(["user_name", *COLUMNS])
            marks = ", ".join(["%s"] * (len(COLUMNS) + 1))
            old = sample_rows(7)[0]
            values = [
                "ada",
                *(int(getattr(old, c)) if c == "estimated" else getattr(old, c) for c in COLUMNS),
            ]
            conn.execute(f"INSERT INTO requests ({cols}) VALUES ({marks})", values)
    env = {"UNICUM_DATABASE_URL": pg_url, "UNICUM_USER": "dana"}
    sessions = three_tasks(llm, workspace, env)
    groups = usage_tasks(env)
    mine = [(g["key"], g["stop"]) for g in groups if g["key"] != old.task_id]
    assert mine == [
        (f"{sessions[0]}/1", "done"),
        (f"{sessions[1]}/1", "max_turns"),
        (f"{sessions[2]}/1", "repeated"),
    ]
    assert [(g["stop"], g["requests"]) for g in groups if g["key"] == old.task_id] == [("", 1)]
    with psycopg.connect(pg_url) as conn:
        version = conn.execute("SELECT version FROM unicum_schema WHERE component = 'ledger'")
        assert version.fetchone()[0] == len(PG_MIGRATIONS)
        users = conn.execute("SELECT DISTINCT user_name, text FROM task_stops").fetchall()
        assert users == [("dana", "look at a.py")]  # what was typed, with the task
