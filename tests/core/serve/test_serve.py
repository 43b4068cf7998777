"""`unicum serve` driven over real HTTP: every endpoint, bad input, the token, the body cap."""

from __future__ import annotations

import json
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT, provider_env, run_cli
from tests.helpers.serve_helpers import Served, start_server

CODE = """def hello(name):
    return "hi " + name


def greet_all(names):
    return [hello(n) for n in names]
"""


@pytest.fixture
def served(isolated_home: Path):
    server = start_server(isolated_home)
    yield server
    server.stop()


@pytest.fixture
def project(workspace: Path) -> Path:
    (workspace / "app.py").write_text(CODE)
    return workspace


def _row(project: Path, **extra) -> dict:
    return {
        "session_id": "ext-1",
        "task_id": "ext-1/1",
        "project": str(project),
        "provider": "openai",
        "model": "gpt-4o",
        "input_tokens": 1000,
        "cache_read_tokens": 3000,
        "cache_write_tokens": 0,
        "output_tokens": 100,
        **extra,
    }


def test_token_file_is_private_and_never_printed(served: Served):
    path = served.home / "serve.token"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert len(served.token) >= 32
    printed = served.stop()
    assert str(path) in printed and served.token not in printed


def test_every_endpoint_refuses_without_the_token(served: Served):
    schema = served.client(token="").get("/openapi.json").json()  # the schema itself is public
    paths = [
        (method, path.replace("{ref}", "x"))
        for path, methods in schema["paths"].items()
        for method in methods
    ]
    assert len(paths) >= 13
    for token in ("", "wrong-token-wrong-token-wrong"):
        with served.client(token=token) as http:
            for method, path in paths:
                reply = http.request(method.upper(), path, json={})
                assert reply.status_code == 401, (method, path)
                assert "bearer token" in reply.json()["detail"]
                assert reply.headers["www-authenticate"] == "Bearer"


def test_the_dashboard_cookie_only_reads_the_dashboard(served: Served, project: Path):
    with served.client(token="") as http:
        first = http.get("/dashboard", params={"token": served.token}, follow_redirects=False)
        assert first.status_code == 303 and first.headers["location"] == "/dashboard"
        assert "HttpOnly" in first.headers["set-cookie"]
        assert "SameSite=Strict" in first.headers["set-cookie"]
        assert http.get("/dashboard").status_code == 200  # the cookie, kept by the client
        assert http.get("/dashboard/data").json()["totals"]["requests"] == 0
        add = {"project": str(project), "type": "notes", "content": "written with a cookie"}
        assert http.post("/memory", json=add).status_code == 401
        assert http.get("/memory", params={"project": str(project)}).status_code == 401
        assert http.get("/memory", params={"token": served.token}).status_code == 401


def test_memory_list_add_search_update_forget(served: Served, project: Path):
    with served.client() as http:
        add = {"project": str(project), "type": "commands", "content": "run tests: pytest -q"}
        made = http.post("/memory", json=add)
        assert made.status_code == 201 and made.json()["status"] == "added"
        key = made.json()["entry"]["key"]
        other = {**add, "type": "conventions", "content": "tabs never spaces in Makefiles"}
        assert http.post("/memory", json=other).json()["status"] == "added"
        assert http.post("/memory", json=add).json()["status"] == "updated"  # same content
        listed = http.get("/memory", params={"project": str(project)}).json()["entries"]
        assert sorted(e["type"] for e in listed) == ["commands", "conventions"]
        found = http.post(
            "/memory/search", json={"project": str(project), "task": "run the tests", "k": 1}
        ).json()["entries"]
        assert [e["key"] for e in found] == [key]
        changed = http.patch(
            f"/memory/{key}", json={"project": str(project), "content": "run tests: pytest -x"}
        )
        assert changed.json()["entry"]["content"] == "run tests: pytest -x"
        gone = http.delete(f"/memory/{key}", params={"project": str(project)})
        assert gone.json()["status"] == "forgotten"
        assert http.delete(f"/memory/{key}", params={"project": str(project)}).status_code == 404
        left = http.get("/memory", params={"project": str(project)}).json()["entries"]
        assert [e["type"] for e in left] == ["conventions"]
    # the CLI reads the same store
    proc = run_cli("memory", "list", "--dir", str(project))
    assert "tabs never spaces" in proc.stdout and "run tests:" not in proc.stdout


def test_code_map_endpoints(served: Served, project: Path):
    with served.client() as http:
        ask = {"project": str(project)}

        def answer(question: str, **params) -> str:
            reply = http.get(f"/codemap/{question}", params={**ask, **params})
            assert reply.status_code == 200, reply.text
            return reply.json()["answer"]

        assert "app.py:1-2 function hello" in answer("definition", name="hello")
        assert "app.py:6 in greet_all" in answer("references", name="hello")
        assert "greet_all" in answer("impact", target="hello")
        assert "def greet_all(names)" in answer("outline", path="app.py")
        assert "app.py" in answer("overview", task="greeting")


def test_ledger_record_reports_and_budget(served: Served, project: Path):
    (served.home / "config.json").write_text(json.dumps({"budget": {"day": {"tokens": 10000}}}))
    yesterday = time.time() - 86400
    with served.client() as http:
        first = http.post("/ledger/requests", json=_row(project))
        assert first.status_code == 201
        # gpt-4o from pricing.json: 1000 × 2.5 + 3000 × 1.25 + 100 × 10 per million
        assert first.json()["cost_usd"] == pytest.approx(0.00725)
        second = _row(project, task_id="ext-1/2", model="other-model", output_tokens=50)
        assert http.post("/ledger/requests", json=second).json()["cost_usd"] is None
        old = _row(project, session_id="ext-0", task_id="ext-0/1", ts=yesterday, cost_usd=0.5)
        http.post("/ledger/requests", json=old)

        def groups(by: str, **params) -> dict[str, dict]:
            reply = http.get("/ledger/report", params={"by": by, **params}).json()
            return {g["key"]: g for g in reply["groups"]}

        assert list(groups("task")) == ["ext-0/1", "ext-1/1", "ext-1/2"]
        assert {k: g["requests"] for k, g in groups("session").items()} == {"ext-0": 1, "ext-1": 2}
        by_model = groups("model")
        assert by_model["openai:gpt-4o"]["total_tokens"] == 2 * 4100
        assert by_model["openai:other-model"]["unpriced"] == 1
        days = groups("day")
        assert len(days) == 2 and sum(g["cost_usd"] or 0 for g in days.values()) == pytest.approx(
            0.50725
        )
        today = groups("day", since_ts=time.time() - 3600)
        assert [g["total_tokens"] for g in today.values()] == [4100 + 4050]
        budget = http.get("/ledger/budget").json()["budgets"]
        assert budget == [
            {
                "scope": "day",
                "metric": "tokens",
                "limit": 10000.0,
                "origin": "config.json budget.day.tokens",
                "spent": 8150.0,
                "fraction": 0.815,
                "exceeded": False,
            }
        ]
    proc = run_cli("usage", "--by", "task", "--json")  # what the CLI reads is the same ledger
    assert [g["key"] for g in json.loads(proc.stdout)["groups"]] == [
        "ext-0/1",
        "ext-1/1",
        "ext-1/2",
    ]


BAD = [
    ("POST", "/memory/search", {"content": "{not json"}, 422),
    ("POST", "/memory/search", {"json": {"task": "x"}}, 422),  # no project
    ("POST", "/memory/search", {"json": {"project": "rel/dir", "task": "x"}}, 400),
    ("POST", "/memory/search", {"json": {"project": "{p}", "task": "x", "k": 1000}}, 422),
    ("POST", "/memory", {"json": {"project": "{p}", "type": "bogus", "content": "x"}}, 400),
    ("POST", "/memory", {"json": {"project": "{p}", "type": "notes", "content": ""}}, 422),
    ("POST", "/memory", {"json": {"project": "{p}/missing", "type": "notes", "content": "x"}}, 400),
    ("PATCH", "/memory/nothing-like-it", {"json": {"project": "{p}", "content": "y"}}, 404),
    ("PATCH", "/memory/x", {"json": {"project": "{p}"}}, 400),
    ("DELETE", "/memory/x", {}, 422),  # no project
    ("GET", "/memory", {"params": {"project": "{p}", "scope": "team"}}, 422),
    ("GET", "/codemap/definition", {"params": {"project": "{p}"}}, 422),
    ("GET", "/codemap/impact", {"params": {"project": "{p}", "target": "x", "depth": 0}}, 422),
    ("GET", "/codemap/outline", {"params": {"project": "/nonexistent/x", "path": "a"}}, 400),
    ("POST", "/ledger/requests", {"json": {"session_id": "s"}}, 422),
    ("POST", "/ledger/requests", {"json": {"input_tokens": -1}}, 422),
    ("POST", "/ledger/requests", {"json": [1, 2]}, 422),
    ("GET", "/ledger/report", {"params": {"by": "week"}}, 422),
    ("GET", "/ledger/report", {"params": {"from_day": "yesterday"}}, 422),
    ("GET", "/dashboard", {"params": {"days": "-3"}}, 422),
    ("GET", "/no/such/route", {}, 404),
    ("PUT", "/memory", {"json": {}}, 405),
]


def test_bad_input_gets_a_4xx_with_one_line(served: Served, project: Path):
    with served.client() as http:
        for method, path, kwargs, status in BAD:
            kwargs = json.loads(json.dumps(kwargs).replace("{p}", str(project)))
            if "content" in kwargs:
                kwargs["headers"] = {"content-type": "application/json"}
            reply = http.request(method, path, **kwargs)
            assert reply.status_code == status, (method, path, kwargs, reply.text)
            detail = reply.json()["detail"]
            assert isinstance(detail, str) and detail and "\n" not in detail, detail
    (served.home / "config.json").write_text("{broken")
    with served.client() as http:  # the server's own file broken: said in one line, not a 500
        reply = http.get("/ledger/budget")
        assert reply.status_code == 503 and "config.json" in reply.json()["detail"]
        extra = {**_row(project), "surprise": 1}
        assert http.post("/ledger/requests", json=extra).status_code == 422


def test_bodies_over_one_mebibyte_get_413(served: Served, project: Path):
    big = {"project": str(project), "type": "notes", "content": "x" * (1024 * 1024)}
    with served.client() as http:
        assert http.post("/memory", json=big).status_code == 413

        def chunks():  # no Content-Length: counted as it arrives
            for _ in range(20):
                yield b"x" * 65536

        reply = http.post("/memory", content=chunks(), headers={"content-type": "application/json"})
        assert reply.status_code == 413 and "1,048,576" in reply.json()["detail"]
        small = {"project": str(project), "type": "notes", "content": "y" * 7000}
        assert http.post("/memory", json=small).status_code == 201


def test_other_interfaces_need_a_token_of_your_own(isolated_home: Path):
    proc = run_cli("serve", "--host", "0.0.0.0", "--port", "0", timeout=120)
    assert proc.returncode == 2 and "need --host and --token" in proc.stderr
    short = run_cli("serve", "--host", "0.0.0.0", env={"UNICUM_SERVE_TOKEN": "abc"}, timeout=120)
    assert short.returncode == 2 and "at least 16 characters" in short.stderr
    assert not (isolated_home / "serve.token").exists()


def test_a_given_token_works_and_is_not_written(isolated_home: Path):
    token = "team-token-0123456789abcdef"
    server = start_server(isolated_home, env={"UNICUM_SERVE_TOKEN": token})
    try:
        with server.client(token=token) as http:
            assert http.get("/ledger/report").status_code == 200
        assert not (isolated_home / "serve.token").exists()
    finally:
        assert token not in server.stop()


def test_help_and_the_repl_never_import_the_web_stack():
    code = (
        "import sys, runpy; sys.argv = ['cli.py', '--help']\n"
        "try:\n    runpy.run_path('cli.py', run_name='__main__')\n"
        "except SystemExit:\n    pass\n"
        "import ui.repl.loop\n"
        "print(sorted(m for m in ('fastapi', 'uvicorn', 'starlette', 'plotly') if m in sys.modules))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert proc.stdout.strip().endswith("[]"), proc.stdout + proc.stderr
    assert "serve" in proc.stdout  # the subcommand is listed in --help


def test_usage_html_says_a_broken_config_in_one_line(isolated_home: Path, tmp_path: Path):
    (isolated_home / "config.json").write_text("{broken")
    proc = run_cli("usage", "--html", str(tmp_path / "u.html"))
    assert proc.returncode == 1 and "config.json" in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_dashboard_data_names_each_task_from_its_transcript(isolated_home, llm, workspace):
    llm.reply("done", usage={"input": 500, "cache_read": 1500, "cache_write": 0, "output": 40})
    env = provider_env(llm, "anthropic")
    proc = run_cli("--dir", str(workspace), "-p", "rename the helper", env=env)
    assert proc.returncode == 0, proc.stderr
    server = start_server(isolated_home)
    try:
        with server.client() as http:
            data = http.get("/dashboard/data").json()
            page = http.get("/dashboard")
    finally:
        server.stop()
    (task,) = data["top_tasks"]
    assert task["task"] == "rename the helper" and task["key"].endswith("/1")
    assert (task["input_tokens"], task["cache_read_tokens"], task["output_tokens"]) == (
        500,
        1500,
        40,
    )
    assert data["days"][0]["total_tokens"] == 2040
    assert page.status_code == 200 and "rename the helper" in page.text
    assert '<script src="/assets/plotly.min.js">' in page.text
