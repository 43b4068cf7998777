"""The newcomer's walk-through, as one script a person can follow in docs/walkthrough.md:
set-up, a first task with approvals, plan mode, /undo and /rewind, resuming, `-p` JSON, an MCP
server, `unicum serve` and its dashboard in Chromium, team mode on PostgreSQL, the Chinese UI.
The scripted model (tests/helpers/fake_llm.py) stands in for a real one; everything else is
real."""

from __future__ import annotations

from tests.core.dashboard.test_dashboard import browser  # noqa: F401 (a fixture)
from tests.e2e import walkthrough_repl as repl_steps
from tests.e2e import walkthrough_services as steps
from tests.helpers import pg_server as pg

pg_server, pg_url = pg.pg_server, pg.pg_url  # the fixtures


def test_the_newcomer_walkthrough(llm, workspace, isolated_home, browser, pg_server, tmp_path):  # noqa: F811
    steps.set_up()  # 1
    repl_steps.first_task_and_approvals(llm, workspace)  # 2-5
    repl_steps.resume(llm, workspace)  # 6
    steps.headless_json(llm, workspace)  # 7
    steps.mcp(llm, workspace)  # 8
    steps.dashboard(browser, isolated_home, "what does hello.py do?", tmp_path)  # 9
    steps.team(llm, workspace, team_database(pg_server))  # 10
    repl_steps.chinese(llm, workspace)  # 11


def team_database(server: str) -> str:
    """A fresh database on the test server (dropped with the server's cluster)."""
    import uuid

    import psycopg

    name = f"walk_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    return f"{server.rpartition('/')[0]}/{name}"
