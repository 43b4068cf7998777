"""The report as one HTML page of Plotly charts (plotly.js from the plotly package, no CDN)."""

from __future__ import annotations

import html
import importlib.util
import json
import time
from pathlib import Path
from typing import Any

from core.dashboard.data import BudgetStatus, UsageReport
from core.ledger import Group


def _plotly_js() -> Path:
    """plotly.min.js as the plotly package ships it (found without importing plotly)."""
    spec = importlib.util.find_spec("plotly")
    if spec is None or not spec.submodule_search_locations:
        return Path("plotly-not-installed/plotly.min.js")
    return Path(next(iter(spec.submodule_search_locations))) / "package_data" / "plotly.min.js"


PLOTLY_JS = _plotly_js()
TOKEN_KINDS = (  # (trace name, Totals field): the stack of each tokens bar
    ("fresh input", "input_tokens"),
    ("cache read", "cache_read_tokens"),
    ("cache write", "cache_write_tokens"),
    ("output", "output_tokens"),
)
_LAYOUT: dict[str, Any] = {
    "margin": {"l": 60, "r": 20, "t": 40, "b": 60},
    "height": 320,
    "legend": {"orientation": "h", "y": -0.25},
}


def _layout(title: str, **extra: Any) -> dict[str, Any]:
    """Axes are categories (days, tasks and models are names, not a time scale) with room for
    their labels."""
    axes = {name: {"automargin": True, **extra.pop(name, {})} for name in ("xaxis", "yaxis")}
    category = "yaxis" if extra.pop("horizontal", False) else "xaxis"
    axes[category]["type"] = "category"
    # the title on the left, the modebar (top right, on hover) never on top of it
    title_box = {"text": title, "x": 0.02, "xanchor": "left", "xref": "container"}
    return {**_LAYOUT, "title": title_box, **axes, **extra}


def _stacked_tokens(groups: list[Group], title: str, horizontal: bool = False) -> dict[str, Any]:
    keys = [g.key for g in groups]
    data = []
    for name, attr in TOKEN_KINDS:
        values = [getattr(g.totals, attr) for g in groups]
        axes = (
            {"y": keys, "x": values, "orientation": "h"} if horizontal else {"x": keys, "y": values}
        )
        data.append({"type": "bar", "name": name, **axes})
    return {"data": data, "layout": _layout(title, barmode="stack", horizontal=horizontal)}


def _cost_bars(groups: list[Group], title: str) -> dict[str, Any]:
    return {
        "data": [
            {
                "type": "bar",
                "name": "USD",
                "x": [g.key for g in groups],
                "y": [round(g.totals.cost_usd or 0.0, 6) for g in groups],
            }
        ],
        "layout": _layout(title, yaxis={"title": {"text": "USD"}}),
    }


def _task_label(report: UsageReport, group: Group) -> str:
    text = " ".join(report.task_text.get(group.key, "").split())
    return (text[:37] + "…" if len(text) > 38 else text) if text else group.key


def priced(report: UsageReport) -> bool:
    """Whether any top task cost something (a local model's are all $0: rank by tokens)."""
    return any((g.totals.cost_usd or 0) > 0 for g in report.top_tasks)


def tasks_title(report: UsageReport) -> str:
    return (
        "Most expensive tasks" if priced(report) else "Largest tasks by tokens (no cost recorded)"
    )


def _cost_by_task(report: UsageReport) -> dict[str, Any]:
    """Horizontal bars, the most expensive (or, all at $0, the largest) at the top, labelled
    with what the user asked."""
    tasks, by_cost = report.top_tasks, priced(report)
    bars = {
        "type": "bar",
        "orientation": "h",
        "name": "USD" if by_cost else "tokens",
        "y": [_task_label(report, g) for g in tasks],
        "x": [
            round(g.totals.cost_usd or 0.0, 6) if by_cost else g.totals.total_tokens for g in tasks
        ],
        "hovertext": [g.key for g in tasks],
    }
    layout = _layout(
        tasks_title(report),
        horizontal=True,
        yaxis={"autorange": "reversed"},
        xaxis={"title": {"text": "USD" if by_cost else "tokens"}},
    )
    return {"data": [bars], "layout": layout}


def figures(report: UsageReport) -> dict[str, dict[str, Any]]:
    """Plotly figures (data + layout) by the id of the element each is drawn in."""
    days = report.days
    hit_rate = {
        "type": "scatter",
        "mode": "lines+markers",
        "name": "cache hit rate",
        "x": [g.key for g in days],
        "y": [round(g.totals.cache_hit_rate * 100, 2) for g in days],
    }
    return {
        "tokens-by-day": _stacked_tokens(days, "Tokens per day"),
        "cost-by-day": _cost_bars(days, "Cost per day"),
        "cache-hit-by-day": {
            "data": [hit_rate],
            "layout": _layout(
                "Cache hit rate per day", yaxis={"title": {"text": "%"}, "range": [0, 100]}
            ),
        },
        "cost-by-task": _cost_by_task(report),
        "tokens-by-model": _stacked_tokens(report.models, "Tokens per model", horizontal=True),
        "cost-by-model": _cost_bars(report.models, "Cost per model"),
        "tokens-by-user": _stacked_tokens(report.users, "Tokens per user", horizontal=True),
    }


def _money(value: float | None) -> str:
    return "unknown" if value is None else f"${value:,.4f}"


def _budget_rows(budgets: list[BudgetStatus]) -> str:
    if not budgets:
        return '<tr><td colspan="4">no budget set (config.json "budget")</td></tr>'
    rows = []
    for b in budgets:
        fmt = _money if b.metric == "usd" else (lambda v: f"{int(v):,} tokens")
        used = "—" if b.spent is None else f"{fmt(b.spent)} ({b.fraction:.0%})"
        state = "exceeded" if (b.fraction or 0) >= 1 else "ok"
        rows.append(
            f'<tr class="budget-{state}"><td>{b.scope}</td><td>{html.escape(fmt(b.limit))}</td>'
            f"<td>{html.escape(used)}</td><td>{html.escape(b.origin)}</td></tr>"
        )
    return "".join(rows)


def _task_rows(report: UsageReport) -> str:
    rows = []
    for g in report.top_tasks:
        t = g.totals
        rows.append(
            f"<tr><td>{html.escape(g.key)}</td>"
            f'<td class="task-text">{html.escape(report.task_text.get(g.key, ""))}</td>'
            f"<td>{t.requests:,}</td><td>{t.total_tokens:,}</td>"
            f"<td>{t.cache_hit_rate:.0%}</td><td>{_money(t.cost_usd)}</td></tr>"
        )
    return "".join(rows) or '<tr><td colspan="6">no tasks recorded</td></tr>'


def _script_json(value: Any) -> str:
    """JSON safe inside a <script> element."""
    return json.dumps(value).replace("</", "<\\/")


def render_html(report: UsageReport, plotly_src: str | None = None) -> str:
    """The page; `plotly_src` is plotly.js's URL, or None to inline it (one self-contained file)."""
    if plotly_src is None:
        plotly = f"<script>{PLOTLY_JS.read_text(encoding='utf-8')}</script>"
    else:
        plotly = f'<script src="{html.escape(plotly_src)}"></script>'
    charts = figures(report)
    t = report.total
    stamp = time.strftime("%Y-%m-%d %H:%M", time.localtime(report.generated))
    divs = "".join(f'<div class="chart" id="{name}"></div>' for name in charts)
    return _PAGE.format(
        plotly=plotly,
        stamp=stamp,
        summary=html.escape(
            f"{t.requests:,} requests, {t.total_tokens:,} tokens, cache hit "
            f"{t.cache_hit_rate:.0%}, cost {_money(t.cost_usd)}"
        ),
        budgets=_budget_rows(report.budgets),
        tasks=_task_rows(report),
        tasks_title=html.escape(tasks_title(report)),
        divs=divs,
        figures=_script_json(charts),
        report=_script_json(report.to_dict()),
    )


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Unicum usage</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 1.5rem; color: #222; }}
.charts {{ display: grid; grid-template-columns: repeat(auto-fit, minmax(520px, 1fr)); gap: 1rem; }}
table {{ border-collapse: collapse; margin: .5rem 0 1.5rem; }}
td, th {{ border-bottom: 1px solid #ddd; padding: .25rem .75rem; text-align: left; }}
.budget-exceeded td {{ color: #b00020; font-weight: bold; }}
</style>
{plotly}
</head><body>
<h1>Unicum usage</h1>
<p id="summary">{summary} <small>(generated {stamp})</small></p>
<h2>Budgets</h2>
<table id="budgets"><tr><th>scope</th><th>limit</th><th>used</th><th>set by</th></tr>{budgets}</table>
<div class="charts">{divs}</div>
<h2 id="tasks-title">{tasks_title}</h2>
<table id="tasks"><tr><th>task</th><th>text</th><th>requests</th><th>tokens</th><th>cache hit</th>
<th>cost</th></tr>{tasks}</table>
<script type="application/json" id="unicum-report">{report}</script>
<script>
const figures = {figures};
for (const [id, fig] of Object.entries(figures)) {{
  Plotly.newPlot(id, fig.data, fig.layout, {{displaylogo: false, responsive: true}});
}}
</script>
</body></html>
"""
