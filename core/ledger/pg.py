"""The team's token ledger in PostgreSQL: the same Ledger, rows with their user, shared budgets.

Each row is written when recorded (the background thread retries what could not be), each
write one transaction (a writer killed midway leaves none of its batch). `spend_today` answers the team budgets before
each model call: what other sessions spent today, for this user or for the whole project. The
reports of `core.ledger.report` run on `open_reports(url)` unchanged.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import psycopg

from core.ledger.stops import MAX_TEXT, PG_UPSERT, TaskStop, m005_task_text
from core.ledger.writer import COLUMNS, FLUSH_INTERVAL_S, Entry, Ledger, LedgerRow, Warn
from my_agent.team import CONNECT_TIMEOUT_S, describe_url, migrate, one_line
from my_agent.team_members import claim, ensure_members, limit_rows, open_to_all

TEAM_FLUSH_INTERVAL_S = FLUSH_INTERVAL_S  # retries of rows the database did not take


def m001_requests(conn: psycopg.Connection) -> None:
    conn.execute("""CREATE TABLE requests (
        id BIGSERIAL PRIMARY KEY, user_name TEXT NOT NULL,
        ts DOUBLE PRECISION NOT NULL, day TEXT NOT NULL, session_id TEXT NOT NULL,
        task_id TEXT NOT NULL, project TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL,
        input_tokens INTEGER NOT NULL, cache_read_tokens INTEGER NOT NULL,
        cache_write_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
        reasoning_tokens INTEGER NOT NULL, latency_ms DOUBLE PRECISION NOT NULL,
        ttft_ms DOUBLE PRECISION, stop_reason TEXT NOT NULL, cost_usd DOUBLE PRECISION,
        estimated INTEGER NOT NULL)""")
    conn.execute("CREATE INDEX requests_day_user ON requests (day, user_name)")
    conn.execute("CREATE INDEX requests_day_project ON requests (day, project)")
    conn.execute("CREATE INDEX requests_session ON requests (session_id)")
    conn.execute("CREATE INDEX requests_ts ON requests (ts)")


def m002_task_stops(conn: psycopg.Connection) -> None:
    """How each task ended (core.ledger.stops), beside its requests."""
    conn.execute("""CREATE TABLE task_stops (
        task_id TEXT PRIMARY KEY, user_name TEXT NOT NULL, session_id TEXT NOT NULL,
        stop TEXT NOT NULL, ts DOUBLE PRECISION NOT NULL)""")


def m003_grants(conn: psycopg.Connection) -> None:
    """Team members connect as ordinary roles (the owner is the admin): they add rows and
    read the totals budgets need."""
    conn.execute("GRANT SELECT, INSERT ON requests, task_stops TO PUBLIC")
    conn.execute("GRANT UPDATE ON task_stops TO PUBLIC")
    conn.execute("GRANT USAGE ON SEQUENCE requests_id_seq TO PUBLIC")


def m006_members(conn: psycopg.Connection) -> None:
    """Row-level security: a role sees and writes a project's requests and task ends only as a
    member of `project:<name>` (the member table project memory uses); task ends carry their
    project from now on (older ones take it from their requests)."""
    ensure_members(conn)
    conn.execute("ALTER TABLE task_stops ADD COLUMN project TEXT NOT NULL DEFAULT ''")
    conn.execute(
        "UPDATE task_stops t SET project = r.project FROM (SELECT DISTINCT ON (task_id) "
        "task_id, project FROM requests) r WHERE r.task_id = t.task_id"
    )
    open_to_all(
        conn,
        "SELECT 'project:' || project AS scope FROM requests UNION "
        "SELECT 'project:' || project FROM task_stops",
    )
    for table in ("requests", "task_stops"):
        limit_rows(conn, table, "'project:' || project")


MIGRATIONS: list[Callable[[psycopg.Connection], None]] = [
    m001_requests,
    m002_task_stops,
    m003_grants,
    m005_task_text,  # the task's typed text (SQLite's fifth step)
    m006_members,
]
_INSERT = (
    f"INSERT INTO requests (user_name, {', '.join(COLUMNS)}) "
    f"VALUES ({', '.join(['%s'] * (len(COLUMNS) + 1))})"
)
_TOKENS = "input_tokens + cache_read_tokens + cache_write_tokens + output_tokens"
SHARED = {"day": "user_name", "user": "user_name", "project": "project"}  # budget scope: column


def connect(url: str) -> psycopg.Connection:
    """An autocommit connection with the ledger schema up to date (OSError when it fails)."""
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
        migrate(conn, "ledger", MIGRATIONS)
        return conn
    except psycopg.Error as exc:
        raise OSError(f"team database {describe_url(url)}: {one_line(exc, url)}") from exc


def open_reports(url: str) -> psycopg.Connection:
    """A connection the report functions (`grouped`, `totals`, ...) read the team ledger on."""
    return connect(url)


def insert_rows(conn: psycopg.Connection, rows: list[LedgerRow] | list[Entry], user: str) -> None:
    """One transaction: all of `rows` (requests and task ends) or none."""
    values = [
        (r.user_name or user, *(int(v) if type(v) is bool else v for v in _fields(r)))
        for r in rows
        if isinstance(r, LedgerRow)
    ]
    stops = [
        (s.task_id, s.session_id, s.stop, s.ts, s.text[:MAX_TEXT], s.user_name or user, s.project)
        for s in rows
        if isinstance(s, TaskStop)
    ]
    with conn.transaction(), conn.cursor() as cur:
        if values:
            cur.executemany(_INSERT, values)
        if stops:
            cur.executemany(PG_UPSERT, stops)


def _fields(row: LedgerRow) -> tuple:
    return tuple(getattr(row, c) for c in COLUMNS)


class TeamLedger(Ledger):
    """Ledger writing to PostgreSQL; its reader connection answers the budgets."""

    errors = (psycopg.Error, OSError)

    def __init__(
        self,
        url: str,
        conn: psycopg.Connection,
        warn: Warn | None = None,
        user: str = "",
        flush_interval: float = TEAM_FLUSH_INTERVAL_S,
        local: Path | None = None,
    ) -> None:
        super().__init__(Path("team-ledger"), flush_interval, warn, user)
        self.url, self.where = url, describe_url(url)
        self._reader: psycopg.Connection | None = conn  # the agent's thread: budgets
        self._writer: psycopg.Connection | None = None  # the flushing thread
        self._claims: dict[str, bool] = {}  # project → may this role write its rows
        self._local_path = local  # where rows of a project this role may not use go
        self._local: Ledger | None = None
        self._read_lock = threading.Lock()
        self._read_failed = False

    def record(self, row: LedgerRow) -> None:
        """Queue the row and, while the database answers, write it now: the team budgets of
        other sessions count it before their next call (a few ms on a local network)."""
        super().record(row)
        if not self.failures:
            self.flush()

    def _insert(self, rows: list[Entry]) -> None:
        """Rows of projects this role is a member of (the first writer of a project nobody
        holds becomes one); the others go to the local ledger, with one warning each."""
        if self._writer is None or self._writer.closed or self._writer.broken:
            self._writer = connect(self.url)
            self._claims = {}
        for project in dict.fromkeys(r.project for r in rows) if rows else ():
            if project not in self._claims:
                self._claims[project] = claim(self._writer, f"project:{project}")
                if not self._claims[project]:
                    self._refused(project)
        mine = [r for r in rows if self._claims[r.project]]
        others = [r for r in rows if not self._claims[r.project]]
        insert_rows(self._writer, mine, self.user)
        if others and self._local is not None:
            for row in others:
                self._local.record(row)

    def _refused(self, project: str) -> None:
        if self._local is None and self._local_path is not None:
            self._local = Ledger(self._local_path, warn=self.warn, user=self.user)
        if self.warn is not None:
            goes = f"goes to the local ledger {self._local_path}" if self._local_path else "is lost"
            self.warn(
                f"the team database {self.where} does not let this role write project "
                f"{project}'s usage (it belongs to other roles; its members can add this one "
                f"to memory_members): this session's usage of it {goes}"
            )

    def spend_today(self, scope: str, day: str, session_id: str, project: str) -> tuple[float, int]:
        """(USD, tokens) spent on `day` by other sessions: this user's ("day", "user") or the
        whole project's ("project"). A database failure counts as nothing, with one warning."""
        column = SHARED[scope]
        value = project if column == "project" else self.user
        sql = (
            f"SELECT COALESCE(SUM(cost_usd), 0), COALESCE(SUM({_TOKENS}), 0) FROM requests "
            f"WHERE day = %s AND session_id <> %s AND {column} = %s"
        )
        with self._read_lock:
            try:
                if self._reader is None or self._reader.closed or self._reader.broken:
                    self._reader = connect(self.url)
                usd, tokens = self._reader.execute(sql, (day, session_id, value)).fetchone()  # type: ignore[misc]
                return float(usd), int(tokens)
            except (psycopg.Error, OSError) as exc:
                if not self._read_failed and self.warn is not None:
                    self._read_failed = True
                    self.warn(
                        f"cannot read today's team spend from {self.where} ({one_line(exc, self.url)}); "
                        "team budgets count this session only"
                    )
                return 0.0, 0

    def close(self) -> None:
        super().close()
        if self._local is not None:
            self._local.close()
        for conn in (self._writer, self._reader):
            if conn is not None:
                conn.close()
        self._writer = self._reader = None


def open_team_ledger(
    url: str, warn: Warn | None = None, user: str = "", local: Path | None = None
) -> TeamLedger:
    """The team's ledger; OSError (one line) when the database cannot be reached. Rows of a
    project this role may not use go to the SQLite ledger at `local`."""
    return TeamLedger(url, connect(url), warn, user, local=local)
