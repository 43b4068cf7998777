"""The dashboard read in headless Chromium: no modebar over a chart's title, and with a local
model's $0 costs the task chart ranks by tokens and says so."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import provider_env, run_cli
from tests.core.dashboard.test_dashboard import CHARTS, browser, served  # noqa: F401 (fixtures)

OVERLAP = """id => {
  const plot = document.getElementById(id);
  const title = plot.querySelector('.gtitle').getBoundingClientRect();
  const bar = plot.querySelector('.modebar').getBoundingClientRect();
  const apart = bar.right <= title.left || bar.left >= title.right
    || bar.bottom <= title.top || bar.top >= title.bottom;
  return {apart, title: [title.left, title.right], bar: [bar.left, bar.right],
          shown: getComputedStyle(plot.querySelector('.modebar')).opacity};
}"""


def open_dashboard(browser, served, width: int):  # noqa: F811
    page = browser.new_page(viewport={"width": width, "height": 1800})
    page.goto(f"{served.url}/dashboard?token={served.token}")
    page.wait_for_function(
        f"document.querySelectorAll('.js-plotly-plot').length === {len(CHARTS)}", timeout=30000
    )
    return page


def test_the_modebar_never_covers_a_chart_title(browser, served, tmp_path):  # noqa: F811
    for width in (1400, 600):  # two charts a row, and one
        page = open_dashboard(browser, served, width)
        for chart in CHARTS:
            page.hover(f"#{chart} .plot-container")  # the modebar shows on hover
            box = page.evaluate(OVERLAP, chart)
            assert box["apart"], (width, chart, box)
        page.screenshot(path=str(tmp_path / f"dashboard-{width}.png"), full_page=True)
        page.close()


def test_with_zero_costs_the_largest_tasks_rank_by_tokens(browser, isolated_home, llm, workspace):  # noqa: F811
    env = provider_env(llm, "openai-compatible")  # a local server: every request costs $0
    for text, fresh in (("small question", 300), ("big refactor", 9000), ("middle one", 2000)):
        llm.reply("ok", usage={"input": fresh, "output": 50})
        proc = run_cli(
            "--dir", str(workspace), "--provider", "openai-compatible", "-p", text, env=env
        )
        assert proc.returncode == 0, proc.stderr
    out = Path(workspace.parent / "usage.html")
    assert run_cli("usage", "--html", str(out)).returncode == 0
    page = browser.new_page(viewport={"width": 1400, "height": 1800})
    page.goto(out.as_uri())
    page.wait_for_function(f"document.querySelectorAll('.js-plotly-plot').length === {len(CHARTS)}")
    bars = page.evaluate(
        "() => { const t = document.getElementById('cost-by-task').data[0];"
        " return {x: Array.from(t.x), y: Array.from(t.y)}; }"
    )
    assert bars["y"] == ["big refactor", "middle one", "small question"]
    assert bars["x"] == sorted(bars["x"], reverse=True) and bars["x"][0] >= 9000
    title = page.text_content("#cost-by-task .gtitle")
    assert title == "Largest tasks by tokens (no cost recorded)"
    assert page.inner_text("#tasks-title") == title
