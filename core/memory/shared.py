"""The team's project memory (PostgreSQL), opened through here so psycopg loads only when set."""

from __future__ import annotations

from pathlib import Path

from core.memory.store import MemoryStore


def open_team_memory(home: Path, workspace: Path, url: str) -> MemoryStore:
    """A MemoryStore whose project memory is the team's; OSError (one line) when the database
    cannot be reached."""
    from core.memory.pg import open_team_memory as open_pg  # psycopg: ~0.2 s to import

    return open_pg(home, workspace, url)
