"""The team database in a session: project memory and ledger in PostgreSQL when one is set.

Unreachable, the session says so once and goes on with the local memory and ledger (nothing
is synced later: what this session learns and spends stays local)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.ledger import Ledger, Warn, open_team_ledger
from core.memory import MemoryStore, open_team_memory
from my_agent.team import database_url

UNREACHABLE = "this session uses the local memory and ledger and syncs nothing to it"


def open_memory(home: Path, workspace: Path, warn: Warn) -> tuple[MemoryStore, str]:
    """The session's memory store and the team database URL ("" when local)."""
    url = database_url()
    if not url:
        return MemoryStore(home, workspace), ""
    try:
        return open_team_memory(home, workspace, url), url
    except OSError as exc:
        warn(f"{exc}; {UNREACHABLE}")
        return MemoryStore(home, workspace), ""


SpendToday = Callable[[str, str, str, str], tuple[float, int]]  # scope, day, session, project


def open_ledger_for(path: Path, url: str, warn: Warn) -> tuple[Ledger, SpendToday | None]:
    """The team ledger and its `spend_today` when `url` is set and reachable, else the local
    ledger at `path` (and None)."""
    if url:
        try:
            team = open_team_ledger(url, warn, local=path)
            return team, team.spend_today
        except OSError as exc:
            warn(f"{exc}; {UNREACHABLE}")
    return Ledger(path, warn=warn), None
