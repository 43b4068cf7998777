"""Project memory and ledger shared in PostgreSQL, against a real server (see tests/helpers/pg_server.py):
concurrent writers lose nothing, a killed writer leaves nothing half-written, secrets are not
stored, authors are kept, and an unreachable database means one warning and the local stores."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import psycopg
import pytest

from core.memory import MemoryEntry, MemoryStore, consolidate, open_team_memory
from tests.conftest import ROOT, provider_env, run_cli
from tests.helpers import pg_server as pg

pg_server, pg_url = pg.pg_server, pg.pg_url  # the fixtures
WRITERS, CHANGES = 8, 100

WRITER = """
import sys, time
from pathlib import Path
from core.ledger import LedgerRow, local_day, open_team_ledger
from core.memory import open_team_memory
url, name, home, workspace, changes = sys.argv[1:6]
store = open_team_memory(Path(home), Path(workspace), url)
ledger = open_team_ledger(url)
for i in range(int(changes)):
    store.add("project", "notes", f"writer {name} learned fact number {i}", key=f"{name}:{i}")
    store.count_hits("project", ["shared"])
    now = time.time()
    ledger.record(LedgerRow(now, local_day(now), name, f"{name}/{i}", "shop", "openai", "gpt-4o",
                            10, 0, 0, 5, 0, 1.0, None, "stop", 0.001, False))
ledger.close()
print("failures", ledger.failures)
"""


def spawn(code: str, *args: str, user: str = "") -> subprocess.Popen[str]:
    env = {**os.environ, "UNICUM_USER": user} if user else dict(os.environ)
    return subprocess.Popen(
        [sys.executable, "-c", code, *args],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_eight_writers_lose_no_memory_change_and_no_ledger_row(pg_url, isolated_home, workspace):
    store = open_team_memory(isolated_home, workspace, pg_url)
    store.add("project", "notes", "a counter every writer bumps", key="shared")
    args = (pg_url, "", str(isolated_home), str(workspace), str(CHANGES))
    procs = [spawn(WRITER, args[0], f"w{n}", *args[2:], user=f"user{n}") for n in range(WRITERS)]
    for proc in procs:
        out, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
        assert "failures 0" in out, err
    entries = {e.key: e for _, e in open_team_memory(isolated_home, workspace, pg_url).entries()}
    assert entries["shared"].hits == WRITERS * CHANGES  # read-modify-write under the lock
    written = [e for k, e in entries.items() if k != "shared"]
    assert len(written) == WRITERS * CHANGES
    assert {e.raw["author"] for e in written} == {f"user{n}" for n in range(WRITERS)}
    with psycopg.connect(pg_url) as conn:
        rows = conn.execute(
            "SELECT user_name, COUNT(DISTINCT task_id) FROM requests GROUP BY user_name"
        ).fetchall()
    assert dict(rows) == {f"user{n}": CHANGES for n in range(WRITERS)}


KILLED = """
import sys, time
from pathlib import Path
from core.ledger import LedgerRow, local_day
from core.ledger.pg import connect, insert_rows
from core.memory import MemoryEntry, open_team_memory
url, home, workspace = sys.argv[1:4]
store = open_team_memory(Path(home), Path(workspace), url)
conn = connect(url)
for batch in range(10**6):
    now = time.time()
    rows = [LedgerRow(now, local_day(now), "killed", f"b{batch}", "shop", "openai", "gpt-4o",
                      1, 0, 0, 1, 0, 1.0, None, "stop", None, False) for _ in range(400)]
    insert_rows(conn, rows, "killed")
    entries = [MemoryEntry(f"b{batch}:{i}", "notes", f"batch {batch} entry {i}", tags=[f"b{batch}"])
               for i in range(40)]
    store.merge("project", entries)
    print(batch, flush=True)
"""


def test_a_killed_writer_leaves_whole_batches_only(pg_url, isolated_home, workspace):
    proc = spawn(KILLED, pg_url, str(isolated_home), str(workspace))
    assert proc.stdout is not None
    for _ in range(5):  # some batches committed, then kill it mid-way through another
        assert proc.stdout.readline(), proc.stderr.read() if proc.stderr else ""
    time.sleep(0.013)
    proc.send_signal(signal.SIGKILL)
    assert proc.wait(timeout=30) == -signal.SIGKILL  # killed, not finished
    proc.stdout.close()
    with psycopg.connect(pg_url) as conn:
        rows = dict(conn.execute("SELECT task_id, COUNT(*) FROM requests GROUP BY task_id"))
    assert len(rows) >= 5 and set(rows.values()) == {400}
    store = open_team_memory(isolated_home, workspace, pg_url)
    per_batch: dict[str, int] = {}
    for _, entry in store.entries():
        per_batch[entry.tags[0]] = per_batch.get(entry.tags[0], 0) + 1
    assert len(per_batch) >= 5 and set(per_batch.values()) == {40}
    # the killed writer's lock went with it: the next writer is not kept waiting
    store.add("project", "notes", "written after the kill", key="after")
    assert store.find("after") is not None


def test_secrets_are_never_stored_and_authors_are_kept(
    pg_url, isolated_home, workspace, monkeypatch
):
    monkeypatch.setenv("DEPLOY_TOKEN", "fake-deploy-token-1234567890")
    monkeypatch.setenv("UNICUM_USER", "dana")
    store = open_team_memory(isolated_home, workspace, pg_url)
    store.add("project", "notes", "deploy with fake-deploy-token-1234567890 on staging")
    with psycopg.connect(pg_url) as conn:
        ((data, author),) = conn.execute("SELECT data, author FROM memory_entries").fetchall()
    assert "fake-deploy-token" not in json.dumps(data)
    assert data["content"] == "deploy with [redacted] on staging"
    assert author == "dana" and data["author"] == "dana"
    assert not MemoryStore(isolated_home, workspace).file("project").path.exists()  # not local


def test_memory_is_shared_across_checkouts_of_one_repository(pg_url, isolated_home, tmp_path):
    one, two = tmp_path / "alice" / "shop", tmp_path / "bob" / "shop-clone"
    for folder in (one, two):
        (folder / ".git").mkdir(parents=True)
        (folder / ".git" / "config").write_text(
            '[remote "origin"]\n\turl = git@example.com:team/shop.git\n'
        )
    open_team_memory(isolated_home, one, pg_url).add("project", "notes", "tests need docker")
    found = open_team_memory(isolated_home, two, pg_url).entries("project")
    assert [e.content for _, e in found] == ["tests need docker"]


def test_team_memory_consolidates_with_a_session_count_the_team_shares(
    pg_url, isolated_home, tmp_path, workspace
):
    alice = open_team_memory(isolated_home, workspace, pg_url)
    # two sessions' notes (keys Unicum made up: an entry with a key of its own never merges)
    alice.merge(
        "project",
        [
            MemoryEntry(
                "note:a",
                "notes",
                "Background jobs run on a Redis queue consumed by workers",
                updated=1.0,
            ),
            MemoryEntry(
                "note:b",
                "notes",
                "Background jobs run on a Redis queue consumed by the workers",
                updated=2.0,
            ),
        ],
    )
    first = consolidate(alice, session_end=True)
    assert (first.merged, first.kept, first.sessions) == (1, 1, 1)
    assert first.index is not None and "consumed by the workers" in first.index.read_text()
    bob = open_team_memory(tmp_path / "bob-home", workspace, pg_url)  # another machine
    assert consolidate(bob, session_end=True).sessions == 2
    assert [e.key for _, e in bob.entries("project")] == ["note:b"]
    listed = run_cli("memory", "list", "--dir", str(workspace), "--scope", "project")
    assert "consumed by the workers" in listed.stdout and listed.returncode == 0, listed.stderr
    shown = run_cli("memory", "show", "note:b", "--dir", str(workspace))
    assert "author" in shown.stdout, shown.stderr


def test_usage_by_user_reads_the_team_ledger(llm, pg_url, isolated_home, workspace):
    llm.reply("hello", usage={"input": 100, "cache_read": 0, "cache_write": 0, "output": 20})
    env = {**provider_env(llm, "openai"), "UNICUM_USER": "dana"}
    proc = run_cli("--dir", str(workspace), "-p", "hi", "--provider", "openai", env=env)
    assert proc.returncode == 0, proc.stderr
    assert not (isolated_home / "ledger.db").exists()
    proc = run_cli("usage", "--by", "user", "--json")
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert [(g["key"], g["requests"], g["total_tokens"]) for g in report["groups"]] == [
        ("dana", 1, 120)
    ]
    text = run_cli("usage", "--by", "user").stdout
    assert "Token use by user" in text and "dana" in text


def test_unreachable_database_warns_once_and_uses_the_local_stores(llm, isolated_home, workspace):
    llm.reply("hello", usage={"input": 100, "cache_read": 0, "cache_write": 0, "output": 20})
    env = {**provider_env(llm, "openai"), "UNICUM_DATABASE_URL": "postgresql://u@127.0.0.1:9/x"}
    proc = run_cli("--dir", str(workspace), "-p", "hi", "--provider", "openai", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "hello"
    warnings = [line for line in proc.stderr.splitlines() if "team database" in line]
    assert len(warnings) == 1, proc.stderr
    assert "uses the local memory and ledger and syncs nothing" in warnings[0]
    assert (isolated_home / "ledger.db").exists()


@pytest.mark.parametrize("together", [False, True], ids=["one-after-the-other", "at-once"])
def test_a_project_budget_shared_by_two_sessions_stops_both(
    pg_url, isolated_home, workspace, together
):
    from tests.helpers.fake_llm import ScriptedLLM

    (isolated_home / "config.json").write_text(
        json.dumps({"budget": {"project": {"tokens": 1000}}, "project": "shop"})
    )
    llm = ScriptedLLM().start()
    try:
        for _ in range(12):  # 400 tokens a call: 3 calls reach the shared limit
            llm.call("read_file", {"path": "missing.txt"}, delay=0.02,
                     usage={"input": 300, "cache_read": 0, "cache_write": 0, "output": 100})  # fmt: skip
        env = {**os.environ, **provider_env(llm, "openai")}
        args = [sys.executable, str(ROOT / "cli.py"), "--dir", str(workspace), "-p", "loop",
                "--provider", "openai"]  # fmt: skip
        procs = []
        for user in ("alice", "bob"):
            procs.append(
                subprocess.Popen(
                    args,
                    env={**env, "UNICUM_USER": user},
                    text=True,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                )  # fmt: skip
            )
            if not together:
                procs[-1].wait(timeout=120)
        results = [p.communicate(timeout=120) for p in procs]
    finally:
        llm.stop()
    for proc, (_, err) in zip(procs, results, strict=True):
        assert proc.returncode == 1, err
        assert "budget reached: today (the project, all users) used" in err.splitlines()[-1]
    made = len(llm.requests)
    if together:
        # each checks before every call what the other has spent plus the next call's estimate
        # (400): two calls already spent leave no room for a third; only a call the other has
        # in flight at that moment is not counted yet
        assert 2 <= made <= 4
    else:
        assert made == 3  # the second session is stopped before its first call
        assert "the next model call was not made" in results[1][1]
