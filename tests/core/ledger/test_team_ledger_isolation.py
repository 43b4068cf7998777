"""The team ledger's rows answer to PostgreSQL's row-level security, like project memory: against
a real server with two ordinary roles, the real CLI and the scripted model. Bob's repository
names Alice's origin: his usage is not written into her project (it goes to his local ledger,
one line says why), `unicum usage` shows him none of her rows, and plain SQL as his role can
neither read, change, delete nor add her project's requests or task ends. Alice's reports and
budgets on the team database still see her own."""

from __future__ import annotations

import json

import psycopg
import pytest

from core.ledger import open_team_ledger
from tests.conftest import provider_env, run_cli
from tests.helpers.pg_server import pg_server, pg_url
from tests.helpers.team_roles import checkout, roles

__all__ = ["pg_server", "pg_url", "roles"]  # the fixtures
USAGE = {"input": 1000, "cache_read": 0, "cache_write": 0, "output": 50}


def session(llm, folder, url: str, user: str, *extra: str):
    llm.reply("hello", usage=USAGE)
    env = {**provider_env(llm, "openai"), "UNICUM_DATABASE_URL": url, "UNICUM_USER": user}
    done = run_cli("--dir", str(folder), "-p", "go", "--no-codemap", *extra, env=env)
    assert done.returncode == 0, done.stderr
    return done


def usage(url: str, user: str) -> dict:
    env = {"UNICUM_DATABASE_URL": url, "UNICUM_USER": user}
    done = run_cli("usage", "--by", "user", "--json", env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def project_of(admin_url: str) -> str:
    with psycopg.connect(admin_url) as conn:
        return conn.execute("SELECT DISTINCT project FROM requests").fetchone()[0]


def test_a_role_never_reads_or_writes_another_projects_ledger(llm, roles, pg_url, tmp_path):
    alice_repo, bob_repo = checkout(tmp_path / "alice"), checkout(tmp_path / "bob")
    session(llm, alice_repo, roles["alice"], "alice")
    project = project_of(pg_url)
    done = session(llm, bob_repo, roles["bob"], "bob")  # names her origin: the same project
    assert "does not let this role write project" in done.stderr, done.stderr

    with psycopg.connect(pg_url) as admin:  # the admin sees everything: only Alice's rows
        users = admin.execute("SELECT user_name FROM requests").fetchall()
        stops = admin.execute("SELECT user_name, project FROM task_stops").fetchall()
    assert users == [("alice",)] and stops == [("alice", project)]
    assert [g["key"] for g in usage(roles["bob"], "bob")["groups"]] == []  # Bob sees nothing
    assert [g["key"] for g in usage(roles["alice"], "alice")["groups"]] == ["alice"]

    with psycopg.connect(roles["bob"], autocommit=True) as bob:
        assert bob.execute("SELECT count(*) FROM requests").fetchone() == (0,)
        assert bob.execute("SELECT count(*) FROM task_stops").fetchone() == (0,)
        assert bob.execute("UPDATE task_stops SET stop = 'error'").rowcount == 0
        for sql in ("UPDATE requests SET cost_usd = 0", "DELETE FROM task_stops"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                bob.execute(sql)  # no such right at all
        with pytest.raises(psycopg.errors.InsufficientPrivilege):  # row-level security
            bob.execute(
                "INSERT INTO task_stops (task_id, user_name, session_id, stop, ts, project) "
                "VALUES ('t-bob', 'alice', 's', 'done', 0, %s)",
                (project,),
            )


def test_a_members_budget_and_other_checkout_still_count(llm, roles, pg_url, tmp_path):
    first, second = checkout(tmp_path / "one"), checkout(tmp_path / "two")
    session(llm, first, roles["alice"], "alice")
    done = session(llm, second, roles["alice"], "alice")  # a member's other checkout
    assert "does not let" not in done.stderr
    report = usage(roles["alice"], "alice")
    assert [(g["key"], g["requests"]) for g in report["groups"]] == [("alice", 2)]
    with psycopg.connect(pg_url) as admin:
        day = admin.execute("SELECT day FROM requests LIMIT 1").fetchone()[0]
    ledger = open_team_ledger(roles["alice"], user="alice")
    try:
        _, tokens = ledger.spend_today("project", day, "another-session", project_of(pg_url))
    finally:
        ledger.close()
    assert tokens == 2 * 1050  # the project's budget counts both checkouts' requests
