"""`python cli.py usage`: what the ledger recorded, grouped, with cache hit rate and daily spend.

`session_totals(session_id)` feeds the REPL's `/usage`; `session_report` is `/usage tasks`.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from core.ledger import (
    Filter,
    Group,
    Totals,
    flush_open_ledgers,
    grouped,
    ledger_path,
    local_day,
    newest_groups,
    open_ledger,
    open_team_reports,
    totals,
)
from my_agent.home import project_id, unicum_home
from my_agent.team import database_url, describe_url, team_project
from ui.subcommands.args import folder_first

_SPAN = re.compile(r"^(\d+)\s*([mhdw])$")
_SECONDS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
CHART_DAYS = 14
BAR_WIDTH = 30


def parse_since(text: str, now: float | None = None) -> float:
    """`30m`, `24h`, `7d`, `2w` back from now, or a date `YYYY-MM-DD` (local midnight)."""
    now = time.time() if now is None else now
    match = _SPAN.match(text.strip().lower())
    if match:
        return now - int(match.group(1)) * _SECONDS[match.group(2)]
    try:
        return datetime.strptime(text.strip(), "%Y-%m-%d").timestamp()
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"--since {text}: use a span like 7d, 24h, 30m, 2w or a date like 2026-01-31"
        ) from None


def _positive_int(text: str) -> int:
    if not text.strip().isdigit() or int(text) <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive whole number: {text}")
    return int(text)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cli.py usage", description="Token use and cost recorded in the ledger."
    )
    p.add_argument("view", nargs="?", choices=["tasks"], help="`tasks`: the same as --by task")
    p.add_argument(
        "--by",
        choices=["task", "session", "day", "model", "user"],
        default="day",
        help="one table row per task, session, day, model or user (default: day)",
    )
    p.add_argument(
        "--since",
        type=parse_since,
        metavar="SPAN",
        help="only requests since 7d, 24h, 30m, 2w or YYYY-MM-DD (default: all)",
    )
    p.add_argument(
        "--dir",
        "--project",
        dest="project",
        metavar="DIR",
        help="only requests made in this project folder",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument(
        "--html",
        metavar="FILE",
        help="write the usage dashboard (charts, budgets, costliest tasks) as one HTML file",
    )
    p.add_argument(
        "--limit", type=_positive_int, default=20, help="newest table rows shown (default 20)"
    )
    return p


def main(argv: list[str]) -> int:
    from my_agent.errors import ConfigError

    args = build_parser().parse_args(folder_first(argv))
    if args.view == "tasks":
        args.by = "task"
    try:
        url = database_url()
    except ConfigError as exc:  # a broken config.json: one line, like every other subcommand
        print(f"unicum: {exc}", file=sys.stderr)
        return 1
    try:
        return report(args, url)
    except BrokenPipeError:  # `… | head`: the reader left; cli.main exits quietly
        raise
    except (sqlite3.Error, OSError) as exc:
        where = describe_url(url) if url else ledger_path(unicum_home())
        print(f"unicum: cannot read the token ledger {where}: {str(exc).strip()}", file=sys.stderr)
        return 1


def _warn(text: str) -> None:
    from ui.words import Strings

    print(f"unicum: warning: {Strings().line(text)}", file=sys.stderr)


def report(args: argparse.Namespace, url: str = "") -> int:
    """The report, from the team ledger when `url` (the team database) is set."""
    path = describe_url(url) if url else ledger_path(unicum_home())
    project = (team_project if url else project_id)(Path(args.project)) if args.project else None
    flt = Filter(since_ts=args.since, project=project)
    if url:
        db = open_team_reports(url)
    else:
        db = open_ledger(path, _warn)
    if args.html:
        return write_html(db, flt, Path(args.html))
    if args.json:
        print(json.dumps(json_report(db, args.by, flt), ensure_ascii=False))
        return 0
    from rich.console import Console

    console = Console() if sys.stdout.isatty() else Console(width=140)
    if db is None or not text_report(console, db, args.by, flt, args.limit).requests:
        console.print(
            f"No model requests recorded{' in this range' if db else ' yet'} (ledger: {path}).",
            highlight=False,
        )
    return 0


def write_html(db, flt: Filter, out: Path) -> int:
    """The dashboard `unicum serve` shows, as one self-contained file (plotly.js inlined)."""
    from core.agent import task_text
    from core.dashboard import build_report, render_html
    from core.ledger import parse_limits
    from my_agent.errors import ConfigError
    from my_agent.home import read_user_config

    home = unicum_home()
    try:
        limits = parse_limits(read_user_config())
    except ConfigError as exc:
        print(f"unicum: {exc}", file=sys.stderr)
        return 1
    report = build_report(db, flt, limits, lambda task: task_text(home, task))
    try:
        out.write_text(render_html(report), encoding="utf-8")
    except OSError as exc:
        print(f"unicum: cannot write {out}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {out} ({report.total.requests:,} requests)")
    return 0


def text_report(console, db, by: str, flt: Filter, limit: int = 20) -> Totals:
    """Table of the newest `limit` groups, totals, and the last CHART_DAYS days as bars."""
    total = totals(db, flt)
    if not total.requests:
        return total
    groups, count = newest_groups(db, by, flt, max(limit, 1))
    render(console, by, groups, total, hidden=count - len(groups))
    chart_from = local_day(time.time() - (CHART_DAYS - 1) * 86400)
    days = groups if by == "day" else grouped(db, "day", replace(flt, from_day=chart_from))
    render_chart(console, [g for g in days if g.key >= chart_from])
    return total


def report_text(db, by: str, flt: Filter, width: int = 140) -> str:
    """The `unicum usage` table as plain text (what a script or a benchmark reads)."""
    import io

    from rich.console import Console

    out = io.StringIO()
    text_report(Console(file=out, width=width), db, by, flt)
    return out.getvalue()


def json_report(db, by: str, flt: Filter) -> dict:
    groups = grouped(db, by, flt) if db else []
    daily = groups if by == "day" else (grouped(db, "day", flt) if db else [])
    return {
        "by": by,
        "since": flt.since_ts,
        "project": flt.project,
        "groups": [_group(g, by) for g in groups],
        "totals": (totals(db, flt) if db else Totals()).to_dict(),
        "daily": [
            {"day": g.key, "cost_usd": g.totals.cost_usd, "tokens": g.totals.total_tokens}
            for g in daily
        ],
    }


def _group(g: Group, by: str) -> dict:
    """A group as JSON; a task's also carries what the user typed as `task` (as the
    dashboard's data does; "" when not found)."""
    if by != "task":
        return g.to_dict()
    return g.to_dict() | {"task": task_words(g)}


# --- rendering ----------------------------------------------------------------------------
def money(t: Totals) -> str:
    if t.cost_usd is None:
        return "unknown"
    return f"${t.cost_usd:,.4f}" + ("+?" if t.unpriced else "")


def render(console, by: str, groups: list[Group], total: Totals, hidden: int = 0) -> None:
    from rich.table import Table

    table = Table(title=f"Token use by {by}", title_justify="left")
    stops = by == "task"  # how each task ended: done, max_turns, repeated, budget, ...
    notes = any(_notes(t) for t in [total, *(g.totals for g in groups)])
    table.add_column(by, justify="left", overflow="ellipsis", max_width=48 if stops else None)
    for name in ("stop",) if stops else ():
        table.add_column(name, justify="left")
    for name in ("requests", "input", "cache read", "cache write", "output", "cache hit", "cost"):
        table.add_column(name, justify="right")
    if notes:
        table.add_column("notes", justify="left")
    for g in groups:
        label = task_label(g) if stops else g.key
        extra = [_notes(g.totals)] if notes else []
        table.add_row(label, *([g.stop or "?"] if stops else []), *_cells(g.totals), *extra)
    table.add_section()
    extra = [_notes(total)] if notes else []
    table.add_row("total", *([""] if stops else []), *_cells(total), *extra, style="bold")
    if hidden > 0:
        table.caption = f"{hidden:,} older {by} rows not shown (--limit)"
    console.print(table)


def task_words(group: Group, home: Path | None = None) -> str:
    """What the user typed for a task group, on one line: as the ledger keeps it with the
    task, or (ledgers from before that) as its transcript has it; "" when not found."""
    if group.text:
        return " ".join(group.text.split())
    from core.agent import task_text

    return " ".join(task_text(home or unicum_home(), group.key).split())


def task_label(group: Group, home: Path | None = None) -> str:
    """What the user typed for that task, else the ledger's task id."""
    return task_words(group, home) or group.key


def _notes(t: Totals) -> str:
    notes = [f"{t.estimated} estimated"] if t.estimated else []
    notes += [f"{t.unpriced} unpriced"] if t.unpriced else []
    return ", ".join(notes)


def _cells(t: Totals) -> list[str]:
    return [
        f"{t.requests:,}",
        f"{t.input_tokens:,}",
        f"{t.cache_read_tokens:,}",
        f"{t.cache_write_tokens:,}",
        f"{t.output_tokens:,}",
        f"{t.cache_hit_rate:.0%}",
        money(t),
    ]


def render_chart(console, days: list[Group]) -> None:
    """Daily spend as bars (tokens when no day has a known cost)."""
    if not days:
        return
    use_cost = any(g.totals.cost_usd for g in days)
    values = [(g.totals.cost_usd or 0.0) if use_cost else g.totals.total_tokens for g in days]
    top = max(values) or 1
    lines = ["\n[bold]Daily spend[/bold]" if use_cost else "\n[bold]Daily tokens[/bold]"]
    for g, value in zip(days, values, strict=True):
        bar = "█" * max(1 if value else 0, round(value / top * BAR_WIDTH))
        label = f"${value:,.4f}" if use_cost else f"{int(value):,}"
        lines.append(f"{g.key} [cyan]{bar:<{BAR_WIDTH}}[/cyan] {label}")
    console.print("\n".join(lines), highlight=False)


def session_ledger(home: Path | None):
    """Where this session's rows are: the team ledger when set and reachable, else local."""
    url = database_url()
    if url:
        try:
            return open_team_reports(url)
        except OSError:
            pass  # the session fell back to the local ledger too
    return open_ledger(ledger_path(home or unicum_home()))


def session_totals(session_id: str, home: Path | None = None) -> Totals:
    """This session's requests as the ledger has them (queued rows flushed first)."""
    flush_open_ledgers()
    db = session_ledger(home)
    if db is None:
        return Totals()
    try:
        return totals(db, Filter(session_id=session_id))
    finally:
        db.close()


def session_report(console, session_id: str, home: Path | None = None) -> Totals:
    """This session's requests by task, from the ledger (flushed first)."""
    flush_open_ledgers()
    db = session_ledger(home)
    if db is None:
        console.print("No model requests in this session yet.")
        return Totals()
    try:
        flt = Filter(session_id=session_id)
        total = totals(db, flt)
        if total.requests:
            groups, count = newest_groups(db, "task", flt, 20)
            render(console, "task", groups, total, hidden=count - len(groups))
        else:
            console.print("No model requests in this session yet.")
        return total
    finally:
        db.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
