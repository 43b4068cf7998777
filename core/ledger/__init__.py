"""The token ledger: rows in SQLite (or a team's PostgreSQL), reports, budgets and prices."""

from core.ledger.budget import BudgetGuard, BudgetWarning, Limit, describe, parse_limits
from core.ledger.pricing import PriceTable, load_prices
from core.ledger.report import (
    Filter,
    Group,
    Totals,
    day_spend,
    grouped,
    newest_groups,
    open_ledger,
    totals,
)
from core.ledger.shared import open_team_ledger, open_team_reports
from core.ledger.stops import STOPS, TaskStop
from core.ledger.writer import (
    Ledger,
    LedgerRow,
    Warn,
    connect,
    flush_open_ledgers,
    insert_rows,
    ledger_path,
    local_day,
)

__all__ = [
    "ledger_path",
    "BudgetGuard",
    "BudgetWarning",
    "Filter",
    "Group",
    "Ledger",
    "LedgerRow",
    "Limit",
    "PriceTable",
    "STOPS",
    "TaskStop",
    "Totals",
    "Warn",
    "connect",
    "day_spend",
    "describe",
    "flush_open_ledgers",
    "grouped",
    "insert_rows",
    "load_prices",
    "local_day",
    "newest_groups",
    "open_ledger",
    "open_team_ledger",
    "open_team_reports",
    "parse_limits",
    "totals",
]
