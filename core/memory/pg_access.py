"""Who may read and write a project's shared memory, decided by PostgreSQL: row-level
security on `memory_entries` and `memory_scopes` lets a database role see a scope's rows only
when it is one of that scope's members (the team's member table, `my_agent/team_members.py`,
which the ledger's rows answer to as well). So a repository that names another project's origin
gets nothing of it: the scope string the client sends picks rows, the database decides whether
it may have them. Scopes written before this migration stay open to every role (`public`)
until their members are narrowed.
"""

from __future__ import annotations

from typing import Any

from my_agent.team_members import claim, ensure_members, limit_rows, open_to_all

__all__ = ["claim", "m003_members"]


def m003_members(conn: Any) -> None:
    """The member table (when the ledger has not made it yet) and the policies."""
    ensure_members(conn)
    open_to_all(conn, "SELECT scope FROM memory_entries UNION SELECT scope FROM memory_scopes")
    for table in ("memory_entries", "memory_scopes"):
        limit_rows(conn, table, "scope")
        conn.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {table} TO PUBLIC")
