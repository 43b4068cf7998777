"""The team ledger (PostgreSQL), opened through here so psycopg loads only when one is set."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.ledger.writer import Warn

if TYPE_CHECKING:
    from core.ledger.pg import TeamLedger


def open_team_ledger(
    url: str, warn: Warn | None = None, user: str = "", local: Path | None = None
) -> TeamLedger:
    """The team's ledger (a Ledger with `spend_today`); OSError when unreachable. Rows of a
    project the database does not let this role write go to the SQLite ledger at `local`."""
    from core.ledger.pg import open_team_ledger as open_pg  # psycopg: ~0.2 s to import

    return open_pg(url, warn, user, local)


def open_team_reports(url: str) -> Any:
    """A PostgreSQL connection the report functions read the team ledger on; OSError when
    unreachable."""
    from core.ledger.pg import open_reports

    return open_reports(url)
