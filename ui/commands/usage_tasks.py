"""`/usage tasks`: this session's tasks as the person typed them, one row each, narrow enough
for a 60-column terminal; cache columns only when the provider reports them (as `/usage`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from core.ledger import Filter, Totals, flush_open_ledgers, newest_groups, totals
from ui.subcommands import money, session_ledger, task_label
from ui.words import STOP_WORDS

if TYPE_CHECKING:
    from core.agent import Agent
    from ui.words import Strings

ROWS = 20


def compact(n: int) -> str:
    """12,345 → 12.3k; 4,500,000 → 4.5M; small numbers as they are."""
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M"
    if n >= 10_000:
        return f"{n / 1000:.1f}k"
    return f"{n:,}"


def _columns(agent: Agent, s: Strings) -> list[tuple[str, object]]:
    """(header, Totals → cell) for the columns this provider can fill."""
    profile = agent.client.provider.profile
    columns: list[tuple[str, object]] = [
        (s.t("req"), lambda t: f"{t.requests:,}"),
        (s.t("input"), lambda t: compact(t.input_tokens)),
    ]
    if profile.reports_cache_reads:
        columns.append((s.t("cached"), lambda t: compact(t.cache_read_tokens)))
    if profile.reports_cache_writes:
        columns.append((s.t("cache wr"), lambda t: compact(t.cache_write_tokens)))
    columns += [
        (s.t("output"), lambda t: compact(t.output_tokens)),
        (s.t("cost"), money),
    ]
    return columns


def _notes(t: Totals, s: Strings) -> str:
    notes = [s.t("{n} estimated", n=t.estimated)] if t.estimated else []
    return ", ".join(notes + ([s.t("{n} unpriced", n=t.unpriced)] if t.unpriced else []))


def stop_word(stop: str | None, s: Strings) -> str:
    """How a task ended, in the UI's language ("?" when the ledger has no record of it)."""
    return s.t(STOP_WORDS[stop]) if stop in STOP_WORDS else "?"


def render_session_tasks(console, agent: Agent, s: Strings, home: Path) -> None:
    from rich.table import Table

    flush_open_ledgers()
    db = session_ledger(home)
    flt = Filter(session_id=agent.tool_context.session_id)
    try:
        total = totals(db, flt) if db is not None else Totals()
        groups = newest_groups(db, "task", flt, ROWS)[0] if total.requests else []
    finally:
        if db is not None:
            db.close()
    if not total.requests:
        console.print(s.t("No model requests in this session yet."))
        return
    columns = _columns(agent, s)
    with_notes = any(_notes(g.totals, s) for g in groups) or bool(_notes(total, s))
    rows = [
        [task_label(g, home), stop_word(g.stop, s)]
        + [cell(g.totals) for _, cell in columns]
        + ([_notes(g.totals, s)] if with_notes else [])
        for g in sorted(groups, key=lambda g: g.totals.first_ts)  # in the order typed
    ]
    last = [s.t("total"), "", *(cell(total) for _, cell in columns)]
    last += [_notes(total, s)] if with_notes else []
    headers = [s.t("stop"), *(header for header, _ in columns)]
    headers += [s.t("notes")] if with_notes else []
    widths = [
        max(len(h), *(len(row[i]) for row in [*rows, last])) for i, h in enumerate(headers, 1)
    ]
    room = max(10, console.width - sum(widths) - 2 * (len(widths) + 1))  # the task gives way
    table = Table(
        title=s.t("Tasks in this session"), title_justify="left", box=None, padding=(0, 1)
    )
    table.add_column(s.t("task"), no_wrap=True, overflow="ellipsis", max_width=room)
    for n, (header, width) in enumerate(zip(headers, widths, strict=True)):
        justify = "left" if n == 0 else "right"  # how it ended, then the numbers
        table.add_column(header, justify=justify, no_wrap=True, min_width=width)
    for row in rows:
        table.add_row(*row)
    table.add_section()
    table.add_row(*last, style="bold")
    console.print(table)
