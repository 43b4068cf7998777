"""`unicum serve` reads the stores the CLI reads: with a team database set, its ledger reports,
dashboard and memory are the team's (a real PostgreSQL), with a view per user."""

from __future__ import annotations

import json

from tests.conftest import provider_env, run_cli
from tests.helpers import pg_server as pg
from tests.helpers.serve_helpers import start_server

pg_server, pg_url = pg.pg_server, pg.pg_url  # the fixtures
USAGE = {"input": 100, "cache_read": 0, "cache_write": 0, "output": 10}


def team_task(llm, workspace, user: str, task: str) -> None:
    llm.call(
        "memory",
        {"action": "add", "type": "project", "key": f"by-{user}", "content": f"{user} was here"},
        usage=USAGE,
    )
    llm.reply("noted", usage=USAGE)
    proc = run_cli(
        "--dir", str(workspace), "--provider", "openai", "--no-codemap", "-p", task,
        env={**provider_env(llm, "openai"), "UNICUM_USER": user},
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr


def test_serve_reads_the_team_database(llm, workspace, isolated_home, pg_url):
    team_task(llm, workspace, "dana", "dana's task")
    team_task(llm, workspace, "ada", "ada's task")
    cli_view = json.loads(run_cli("usage", "--by", "user", "--json").stdout)
    assert sorted(g["key"] for g in cli_view["groups"]) == ["ada", "dana"]
    served = start_server(isolated_home)
    try:
        assert "team database" in served.banner and pg_url.rpartition("/")[2] in served.banner
        with served.client() as client:
            data = client.get("/dashboard/data").json()
            assert data["totals"]["requests"] == 4  # two requests per task, as the CLI says
            assert sorted(g["key"] for g in data["users"]) == ["ada", "dana"]
            assert sorted(t["task"] for t in data["top_tasks"]) == ["ada's task", "dana's task"]
            by_user = client.get("/ledger/report", params={"by": "user"})
            assert by_user.status_code == 200, by_user.text
            assert {g["key"]: g["requests"] for g in by_user.json()["groups"]} == {
                "ada": 2,
                "dana": 2,
            }
            mine = client.get("/dashboard/data", params={"user": "dana"}).json()
            assert mine["totals"]["requests"] == 2
            assert [t["task"] for t in mine["top_tasks"]] == ["dana's task"]
            page = client.get("/dashboard", params={"user": "ada"}).text
            assert "ada&#x27;s task" in page and "dana&#x27;s task" not in page
            memory = client.get("/memory", params={"project": str(workspace)}).json()
            entries = {e["key"]: e["content"] for e in memory["entries"]}
            assert entries.items() >= {"by-dana": "dana was here", "by-ada": "ada was here"}.items()
            added = client.post(
                "/memory",
                json={"project": str(workspace), "type": "project", "key": "api", "content": "x"},
            )
            assert added.status_code == 201
    finally:
        served.stop()
    shown = run_cli("memory", "show", "api", "--dir", str(workspace))
    assert shown.returncode == 0 and "api" in shown.stdout  # written to the team's memory
