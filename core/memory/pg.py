"""Project memory shared by a team in PostgreSQL: the same MemoryStore, its project file in a table.

One row per entry (scope, key) holding the entry's JSON object and its author. A change runs
in one transaction under an advisory lock on the scope: it reads the latest rows (or reuses
its copy when the scope's version is unchanged), applies the store's edit, and upserts only
the entries it changed and deletes only the ones it removed; so writers on several machines
lose nothing, and a writer killed midway leaves nothing half-written. Secret values (see
my_agent.secrets) are replaced before anything is stored. The global scope stays local.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from core.memory.entry import PATH_TYPES, MemoryEntry
from core.memory.file import MemoryFile
from core.memory.pg_access import claim, m003_members
from core.memory.store import MemoryStore
from my_agent.secrets import redact, redact_strings, secret_values
from my_agent.team import (
    CONNECT_TIMEOUT_S,
    describe_url,
    migrate,
    one_line,
    team_project,
    user_name,
)


def m001_entries(conn: psycopg.Connection) -> None:
    conn.execute("""CREATE TABLE memory_entries (
        scope TEXT NOT NULL, key TEXT NOT NULL, type TEXT NOT NULL, data JSONB NOT NULL,
        author TEXT NOT NULL, updated DOUBLE PRECISION NOT NULL, PRIMARY KEY (scope, key))""")
    conn.execute("CREATE TABLE memory_scopes (scope TEXT PRIMARY KEY, version BIGINT NOT NULL)")


def m002_sessions(conn: psycopg.Connection) -> None:
    """Sessions counted for consolidation, shared by the team (decay is measured in them)."""
    conn.execute(
        "ALTER TABLE memory_scopes ADD COLUMN sessions BIGINT NOT NULL DEFAULT 0, "
        "ADD COLUMN last_run DOUBLE PRECISION NOT NULL DEFAULT 0"
    )


MIGRATIONS: list[Callable[[psycopg.Connection], None]] = [m001_entries, m002_sessions, m003_members]
_UPSERT = (
    "INSERT INTO memory_entries (scope, key, type, data, author, updated) "
    "VALUES (%s, %s, %s, %s, %s, %s) ON CONFLICT (scope, key) DO UPDATE SET "
    "type = excluded.type, data = excluded.data, author = excluded.author, "
    "updated = excluded.updated"
)
_BUMP = (
    "INSERT INTO memory_scopes VALUES (%s, 1) ON CONFLICT (scope) DO UPDATE "
    "SET version = memory_scopes.version + 1 RETURNING version"
)


def connect(url: str) -> psycopg.Connection:
    """An autocommit connection with the memory schema up to date (OSError when it fails)."""
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
        migrate(conn, "memory", MIGRATIONS)
        return conn
    except psycopg.Error as exc:
        raise OSError(f"team database {describe_url(url)}: {one_line(exc, url)}") from exc


class TeamMemoryFile(MemoryFile):
    """A memory "file" kept in PostgreSQL rows: `entries()` and `change()` as MemoryFile's."""

    def __init__(self, url: str, conn: psycopg.Connection, scope: str, path: Path, root: Path):
        super().__init__(path, root)  # `path`: where MEMORY.md and local state go
        self.url, self.scope, self.author = url, scope, user_name()
        self._conn: psycopg.Connection | None = conn
        self._rows: dict[str, MemoryEntry] | None = None  # every row, as last read
        self._visible: dict[str, MemoryEntry] = {}  # without entries of missing files
        self._version = -1

    def entries(self) -> dict[str, MemoryEntry]:
        try:
            conn = self._connection()
            self._refresh(conn, self._scope_version(conn))
        except psycopg.Error as exc:
            raise self._failed(exc) from exc
        return self._visible

    def change(self, fn: Callable[[dict[str, MemoryEntry]], Any], fold: bool = False) -> Any:
        """As MemoryFile.change, in one transaction (rows: nothing to fold)."""
        try:
            conn = self._connection()
            with conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (self.scope,))
                self._claim(conn)
                self._refresh(conn, self._scope_version(conn))
                assert self._rows is not None
                rows, before = self._rows, dict(self._visible)
                self._rows = None  # if `fn` or the write fails, the next use reads again
                current = dict(before)
                result = fn(current)
                if self._write(conn, before, current):
                    self._version = conn.execute(_BUMP, (self.scope,)).fetchone()[0]  # type: ignore[index]
                hidden = {k: e for k, e in rows.items() if k not in before}
                self._rows = {**hidden, **current}
                self._visible = current
        except psycopg.Error as exc:
            raise self._failed(exc) from exc
        return result

    def count_session(self, session_end: bool, now: float) -> tuple[int, float]:
        """The team's session count for this project (one more at a session end) and the
        last consolidation's time; records this one."""
        try:
            conn = self._connection()
            with conn.transaction():
                self._claim(conn)
                conn.execute(
                    "INSERT INTO memory_scopes (scope, version) VALUES (%s, 0) "
                    "ON CONFLICT (scope) DO NOTHING",
                    (self.scope,),
                )
                row = conn.execute(
                    "SELECT sessions, last_run FROM memory_scopes WHERE scope = %s FOR UPDATE",
                    (self.scope,),
                ).fetchone()
                assert row is not None
                sessions = row[0] + (1 if session_end else 0)
                conn.execute(
                    "UPDATE memory_scopes SET sessions = %s, last_run = %s WHERE scope = %s",
                    (sessions, now, self.scope),
                )
        except psycopg.Error as exc:
            raise self._failed(exc) from exc
        return sessions, row[1]

    # --- internals ---------------------------------------------------------------------
    def _connection(self) -> psycopg.Connection:
        if self._conn is None or self._conn.closed or self._conn.broken:
            self._conn = connect(self.url)
        return self._conn

    def _claim(self, conn: psycopg.Connection) -> None:
        """Hold the scope when nobody does; refuse when it is other roles' (the database's
        row-level security would refuse the write anyway: this says why)."""
        if not claim(conn, self.scope):
            raise OSError(
                f"team memory in {describe_url(self.url)}: {self.scope} belongs to other roles "
                "of the team database; a member can add you (INSERT INTO memory_members VALUES "
                f"('{self.scope}', '<your role>'))"
            )

    def _failed(self, exc: psycopg.Error) -> OSError:
        self._rows = None
        if self._conn is not None and self._conn.broken:
            self._conn = None
        return OSError(f"team memory in {describe_url(self.url)}: {one_line(exc, self.url)}")

    def _scope_version(self, conn: psycopg.Connection) -> int:
        row = conn.execute(
            "SELECT version FROM memory_scopes WHERE scope = %s", (self.scope,)
        ).fetchone()
        return row[0] if row else 0

    def _refresh(self, conn: psycopg.Connection, version: int) -> None:
        """Read every row of the scope unless our copy is of this version."""
        if self._rows is not None and version == self._version:
            return
        found = conn.execute(
            "SELECT data FROM memory_entries WHERE scope = %s", (self.scope,)
        ).fetchall()
        self._rows = {}
        for (data,) in found:
            entry = MemoryEntry.from_dict(data)
            entry.dirty = False
            self._rows[entry.key] = entry
        self._version = version
        self._visible = {k: e for k, e in self._rows.items() if not self._missing(e)}

    def _missing(self, entry: MemoryEntry) -> bool:
        """An entry about a file this checkout does not have: hidden here, kept for others."""
        path = entry.meta.get("path") if entry.type in PATH_TYPES else None
        return bool(path) and self.root is not None and not os.path.lexists(self.root / path)

    def _write(
        self,
        conn: psycopg.Connection,
        before: dict[str, MemoryEntry],
        after: dict[str, MemoryEntry],
    ) -> bool:
        """Upsert the entries `fn` added or changed, delete the ones it removed."""
        secrets = secret_values()
        for key in [k for k in after if secrets and redact(k, secrets) != k]:
            entry = after.pop(key)  # a key holding a secret: stored under its redacted form
            entry.key = redact(key, secrets)
            after[entry.key] = entry
        changed = [e for k, e in after.items() if e.dirty or before.get(k) is not e]
        gone = [k for k in before if k not in after]
        rows = []
        for entry in changed:
            raw = redact_strings(entry.to_dict(), secrets) if secrets else dict(entry.to_dict())
            raw["author"] = self.author
            entry.raw, entry.dirty, entry.text = raw, False, None
            rows.append((self.scope, entry.key, entry.type, Jsonb(raw), self.author, entry.updated))
        with conn.cursor() as cur:
            if rows:
                cur.executemany(_UPSERT, rows)
            if gone:
                cur.execute(
                    "DELETE FROM memory_entries WHERE scope = %s AND key = ANY(%s)",
                    (self.scope, gone),
                )
        return bool(rows or gone)


class TeamMemoryStore(MemoryStore):
    """MemoryStore whose project memory is the team's, in PostgreSQL; global stays local."""

    def __init__(self, home: Path, workspace: Path, url: str, conn: psycopg.Connection) -> None:
        super().__init__(home, workspace)
        local = self.files["project"].path
        self.project = team_project(self.workspace)
        self.team = TeamMemoryFile(
            url, conn, f"project:{self.project}", local.with_name("team"), self.workspace
        )
        self.files["project"] = self.team

    def count_session(self, session_end: bool, now: float) -> tuple[int, float]:
        """Counted by the team, in the database."""
        return self.team.count_session(session_end, now)

    def add(
        self,
        scope: str,
        type_: str,
        content: str,
        key: str = "",
        tags: Sequence[str] = (),
        source: str = "",
    ) -> tuple[str, MemoryEntry]:
        """As MemoryStore.add, with secret values taken out first (a key made from the
        content could otherwise keep part of one)."""
        secrets = secret_values()
        return super().add(
            scope, type_, redact(content, secrets), redact(key, secrets), tags, source
        )


def open_team_memory(home: Path, workspace: Path, url: str) -> TeamMemoryStore:
    """The team's memory store; OSError (one line) when the database cannot be reached."""
    return TeamMemoryStore(home, workspace, url, connect(url))
