"""The usage dashboard in a real headless Chromium: it loads offline, its charts carry the
ledger's numbers, and a screenshot is kept in the test's tmp folder."""

from __future__ import annotations

import json
import shutil
import time
from pathlib import Path

import pytest

from tests.conftest import provider_env, run_cli
from tests.helpers.serve_helpers import Served, start_server

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
CHARTS = (
    "tokens-by-day",
    "cost-by-day",
    "cache-hit-by-day",
    "cost-by-task",
    "tokens-by-model",
    "cost-by-model",
    "tokens-by-user",
)
DAY = 86400


@pytest.fixture
def browser():
    """Debian's Chromium driven by Playwright (its own browser downloads are never used)."""
    if not Path(CHROMIUM).is_file():
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright is not installed (pip install -r requirements.txt)")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def served(browser, isolated_home: Path, llm, workspace: Path):
    """A real -p session (its task text is in its transcript) plus requests another agent
    recorded over HTTP on two earlier days, then the server."""
    llm.reply(
        "the ledger", usage={"input": 2000, "cache_read": 6000, "cache_write": 1000, "output": 300}
    )
    env = provider_env(llm, "anthropic")
    proc = run_cli("--dir", str(workspace), "-p", "explain the token ledger", env=env)
    assert proc.returncode == 0, proc.stderr
    (isolated_home / "config.json").write_text(json.dumps({"budget": {"day": {"usd": 1.0}}}))
    server = start_server(isolated_home)
    now = time.time()
    with server.client() as http:
        for days_ago, task, model, fresh, read, out, cost in (
            (2, "other/1", "gpt-4o", 5000, 0, 500, 0.30),
            (1, "other/2", "gpt-4o-mini", 1000, 9000, 100, 0.02),
            (1, "other/3", "gpt-4o", 3000, 1000, 200, 0.12),
        ):
            row = {
                "session_id": "other",
                "task_id": task,
                "project": str(workspace),
                "provider": "openai",
                "model": model,
                "input_tokens": fresh,
                "cache_read_tokens": read,
                "output_tokens": out,
                "cost_usd": cost,
                "ts": now - days_ago * DAY,
            }
            assert http.post("/ledger/requests", json=row).status_code == 201
    yield server
    server.stop()


def _ledger(server: Served, by: str) -> list[dict]:
    with server.client() as http:
        return http.get("/ledger/report", params={"by": by}).json()["groups"]


def _chart_data(page) -> dict[str, list[dict]]:
    page.wait_for_function(
        f"document.querySelectorAll('.js-plotly-plot').length === {len(CHARTS)}", timeout=30000
    )
    return page.evaluate(
        "ids => Object.fromEntries(ids.map(id => [id, document.getElementById(id).data"
        ".map(t => ({name: t.name, x: Array.from(t.x), y: Array.from(t.y)}))]))",
        list(CHARTS),
    )


def _check_numbers(charts: dict[str, list[dict]], days: list[dict], models: list[dict]) -> None:
    stack = {t["name"]: t for t in charts["tokens-by-day"]}
    assert stack["fresh input"]["x"] == [d["key"] for d in days]
    for name, field in (
        ("fresh input", "input_tokens"),
        ("cache read", "cache_read_tokens"),
        ("cache write", "cache_write_tokens"),
        ("output", "output_tokens"),
    ):
        assert stack[name]["y"] == [d[field] for d in days], name
    (cost,) = charts["cost-by-day"]
    assert cost["y"] == pytest.approx([d["cost_usd"] or 0 for d in days])
    (hit,) = charts["cache-hit-by-day"]
    assert hit["y"] == pytest.approx([d["cache_hit_rate"] * 100 for d in days], abs=0.01)
    model_stack = {t["name"]: t for t in charts["tokens-by-model"]}
    assert model_stack["output"]["y"] == [m["key"] for m in models]
    assert model_stack["output"]["x"] == [m["output_tokens"] for m in models]


def test_dashboard_shows_the_ledger_in_chromium(browser, served: Served, tmp_path: Path):
    days, models = _ledger(served, "day"), _ledger(served, "model")
    assert len(days) == 3 and len(models) == 3
    outside: list[str] = []
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.on(
        "request",
        lambda r: None if r.url.startswith(served.url) else outside.append(r.url),
    )
    page.goto(f"{served.url}/dashboard?token={served.token}")
    assert page.url == f"{served.url}/dashboard"  # the token left the address bar
    charts = _chart_data(page)
    _check_numbers(charts, days, models)
    (by_task,) = charts["cost-by-task"]
    costs = sorted((t["cost_usd"] for t in _ledger(served, "task")), reverse=True)
    assert by_task["x"] == pytest.approx(costs) and costs[:2] == [0.30, 0.12]
    assert by_task["y"][-1] == "explain the token ledger"  # labelled with the task text
    tasks = page.inner_text("#tasks")
    assert "explain the token ledger" in tasks  # the -p session's task, from its transcript
    assert "other/1" in tasks
    budgets = page.inner_text("#budgets")
    assert "config.json budget.day.usd" in budgets
    assert f"${days[-1]['cost_usd']:,.4f}" in budgets  # today's spend against the day budget
    page.screenshot(path=str(tmp_path / "dashboard.png"), full_page=True)
    assert outside == []  # plotly.js and everything else came from the service
    assert (tmp_path / "dashboard.png").stat().st_size > 20_000
    print(f"screenshot: {tmp_path / 'dashboard.png'}")


def test_usage_html_is_one_file_with_the_same_charts(browser, served: Served, tmp_path: Path):
    days, models = _ledger(served, "day"), _ledger(served, "model")
    out = tmp_path / "usage.html"
    proc = run_cli("usage", "--html", str(out))
    assert proc.returncode == 0 and f"wrote {out}" in proc.stdout, proc.stderr
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.route(
        "**/*",
        lambda route: (
            route.abort() if not route.request.url.startswith("file:") else route.continue_()
        ),
    )
    page.goto(out.as_uri())
    _check_numbers(_chart_data(page), days, models)
    page.screenshot(path=str(tmp_path / "usage-html.png"), full_page=True)
