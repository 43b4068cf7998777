"""/usage and /context: the session's usage as the ledger recorded it, and what the next
request holds (both read from core; this module only lays them out)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.agent import breakdown, status
from core.model import price_mode
from ui.words import N_, PHASE_WORDS, Strings

if TYPE_CHECKING:
    from rich.console import Console

    from core.agent import Agent
    from ui.views import ChildTally


def context_tokens(agent: Agent) -> int:
    return sum(n for _, n in breakdown(agent))


def _table(title: str):
    from rich.table import Table

    return Table(title=title, show_header=False, box=None, padding=(0, 2), title_justify="left")


def render_context(console: Console, s: Strings, agent: Agent) -> None:
    rows = breakdown(agent)
    table = _table(s.t("Next request"))
    for key, tokens in rows:
        table.add_row(s.t(str(key)), f"{tokens:,}")
    total = sum(n for _, n in rows)
    table.add_row(s.t("total"), f"{total:,}", style="bold")
    info = status(agent)
    window = int(info["window"] or agent.client.provider.profile.context_window)
    table.add_row(
        s.t("model window"), f"{window:,} ({100 * total / window:.1f}%)" if window else "—"
    )
    if info["phase"]:
        table.add_row(s.t("phase"), s.t(PHASE_WORDS[info["phase"]]))
    table.add_row(s.t("compactions so far"), str(info["compactions"]))
    table.add_row(s.t("archived outputs (recall)"), str(info["archived"]))
    console.print(table)
    if info["archive_problem"]:
        console.print(
            s.t(
                "archived outputs are kept in memory only: {detail}", detail=info["archive_problem"]
            ),
            style="yellow",
        )


def render_usage(
    console: Console, s: Strings, agent: Agent, children: ChildTally | None = None
) -> None:
    """This session's requests from the ledger (the provider's own counts; its sub-agents'
    included, and shown on their own line), and the context the next request would carry
    against the model's window."""
    from ui.subcommands import session_totals

    t = session_totals(agent.tool_context.session_id)
    table = _table(s.t("This session"))
    table.add_row(s.t("requests"), f"{t.requests:,}")
    table.add_row(s.t("fresh input tokens"), f"{t.input_tokens:,}")
    profile = agent.client.provider.profile
    unreported = s.t("not reported by {provider}", provider=profile.name)
    # what the ledger holds, whatever the profile claims the provider reports
    reads = t.cache_read_tokens or profile.reports_cache_reads
    writes = t.cache_write_tokens or profile.reports_cache_writes
    table.add_row(s.t("cache-read tokens"), f"{t.cache_read_tokens:,}" if reads else unreported)
    table.add_row(s.t("cache-write tokens"), f"{t.cache_write_tokens:,}" if writes else unreported)
    table.add_row(s.t("output tokens"), f"{t.output_tokens:,}")
    if children is not None and children.requests:
        table.add_row(
            s.t("of which sub-agents"),
            s.tn("{n} request", "{n} requests", children.requests, n=children.requests)
            + " · "
            + s.tn("{n} token", "{n} tokens", children.tokens, n=f"{children.tokens:,}"),
        )
    if t.prompt_tokens and reads:
        table.add_row(s.t("cache hit rate"), f"{t.cache_hit_rate:.0%}")
    mode = price_mode(agent.client.provider)
    if mode == "local":
        cost = s.t("local ($0: a server of your own)")
    elif t.cost_usd is None:
        no_price = (
            N_("unknown (not the provider's own service: its prices do not apply)")
            if mode == "unknown"
            else N_("unknown (no price for this model)")
        )
        cost = s.t(no_price) if t.requests else "$0.0000"
    else:
        cost = f"${t.cost_usd:.4f}" + (s.t(" + {n} unpriced", n=t.unpriced) if t.unpriced else "")
    table.add_row(s.t("estimated cost"), cost)
    window = agent.client.provider.profile.context_window
    now = context_tokens(agent)
    table.add_row(s.t("context now"), f"~{now:,} / {window:,} ({100 * now / window:.1f}%)")
    console.print(table)
    if t.estimated:
        console.print(
            s.t("{n} interrupted request(s) counted by a local estimate", n=t.estimated),
            style="dim",
        )
