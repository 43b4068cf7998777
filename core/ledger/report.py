"""Read side of the ledger: totals grouped by task, session, day or model (no screen code)."""

from __future__ import annotations

import sqlite3
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from core.ledger.stops import stops_of
from core.ledger.writer import Warn, connect
from my_agent.team import user_name

GROUP_KEYS = {
    "task": "task_id",
    "session": "session_id",
    "day": "day",
    "model": "provider || ':' || model",
}
TEAM_GROUP_KEYS = {**GROUP_KEYS, "user": "user_name"}  # a SQLite ledger has one user


@dataclass
class Totals:
    requests: int = 0
    input_tokens: int = 0
    cache_read_tokens: int = 0
    cache_write_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cost_usd: float | None = None  # sum over priced rows; None when no row had a price
    unpriced: int = 0  # rows whose model had no price
    estimated: int = 0  # rows counted locally (interrupted streams)
    first_ts: float = 0.0
    last_ts: float = 0.0
    avg_latency_ms: float = 0.0

    @property
    def prompt_tokens(self) -> int:
        return self.input_tokens + self.cache_read_tokens + self.cache_write_tokens

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.output_tokens

    @property
    def cache_hit_rate(self) -> float:
        """Share of prompt tokens served from the provider's cache."""
        return self.cache_read_tokens / self.prompt_tokens if self.prompt_tokens else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "total_tokens": self.total_tokens,
            "cache_hit_rate": round(self.cache_hit_rate, 4),
        }


@dataclass
class Group:
    key: str
    totals: Totals
    stop: str | None = None  # a task's: how it ended ("" when not recorded); None for others
    text: str = ""  # a task's: what the user typed for it ("" when the ledger has none)

    def to_dict(self) -> dict[str, Any]:
        stop = {} if self.stop is None else {"stop": self.stop}
        return {"key": self.key, **self.totals.to_dict(), **stop}


# (table, aggregates, first-time column): raw rows, or the per-task rollup the trigger keeps
_RAW = (
    "requests",
    "COUNT(*), SUM(input_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens), "
    "SUM(output_tokens), SUM(reasoning_tokens), SUM(cost_usd), "
    "SUM(CASE WHEN cost_usd IS NULL THEN 1 ELSE 0 END), SUM(estimated), MIN(ts), MAX(ts), "
    "AVG(latency_ms)",
    "ts",
)
_ROLLUP = (
    "rollup",
    "SUM(requests), SUM(input_tokens), SUM(cache_read_tokens), SUM(cache_write_tokens), "
    "SUM(output_tokens), SUM(reasoning_tokens), SUM(cost_usd), SUM(unpriced), "
    "SUM(estimated), MIN(first_ts), MAX(last_ts), SUM(latency_ms) / SUM(requests)",
    "first_ts",
)


def _totals(values: tuple) -> Totals:
    n, i, cr, cw, o, r, cost, unpriced, est, first, last, lat = values
    return Totals(
        n or 0,
        i or 0,
        cr or 0,
        cw or 0,
        o or 0,
        r or 0,
        cost,
        unpriced or 0,
        est or 0,
        first or 0.0,
        last or 0.0,
        lat or 0.0,
    )


@dataclass(frozen=True)
class Filter:
    since_ts: float | None = None
    project: str | None = None
    session_id: str | None = None
    from_day: str | None = None  # YYYY-MM-DD, inclusive (whole days: the rollup can answer)
    user: str | None = None  # one user's requests (a SQLite ledger holds this machine's user's)

    def source(self, db: Any = None) -> tuple[str, str, str]:
        """The rollup answers whole-task questions; a time or session cut needs the raw rows,
        and so does the team ledger (PostgreSQL, no rollup)."""
        if self.since_ts is not None or self.session_id is not None or _is_team(db):
            return _RAW
        return _ROLLUP

    def where(self, db: Any = None) -> tuple[str, list[Any]]:
        mark = "%s" if _is_team(db) else "?"
        clauses, params = [], []
        for clause, value in (
            ("ts >= ", self.since_ts),
            ("project = ", self.project),
            ("session_id = ", self.session_id),
            ("day >= ", self.from_day),
        ):
            if value is not None:
                clauses.append(clause + mark)
                params.append(value)
        if self.user is not None and _is_team(db):
            clauses.append("user_name = %s")
            params.append(self.user)
        elif self.user is not None and self.user != user_name():
            clauses.append("0 = 1")  # another user's: none of this machine's rows
        return (" WHERE " + " AND ".join(clauses)) if clauses else "", params


def _is_team(db: Any) -> bool:
    """A PostgreSQL connection (the team ledger) rather than a SQLite one."""
    return db is not None and not isinstance(db, sqlite3.Connection)


def open_ledger(path: Path, warn: Warn | None = None) -> sqlite3.Connection | None:
    """A connection to an existing ledger, or None when nothing was ever recorded. A damaged
    file is set aside (see `connect`) and `warn` told."""
    return connect(path, warn) if Path(path).is_file() else None


def grouped(db: sqlite3.Connection, by: str, flt: Filter = Filter()) -> list[Group]:
    """One Group per task / session / day / model, oldest first."""
    return newest_groups(db, by, flt)[0]


def newest_groups(
    db: sqlite3.Connection, by: str, flt: Filter = Filter(), limit: int | None = None
) -> tuple[list[Group], int]:
    """The newest `limit` groups (all when None), oldest first, and how many groups there are.
    `db` is the SQLite ledger or the team ledger's PostgreSQL connection (same SQL)."""
    if by == "user" and not _is_team(db):
        total = totals(db, flt)
        return ([Group(user_name(), total)] if total.requests else []), int(total.requests > 0)
    key = TEAM_GROUP_KEYS[by]
    table, aggregates, first = flt.source(db)
    where, params = flt.where(db)
    sql = (
        f"SELECT {key}, {aggregates}, COUNT(*) OVER () FROM {table}{where} "
        f"GROUP BY {key} ORDER BY MIN({first}) DESC"
    )
    if limit is not None:
        sql += f" LIMIT {int(limit)}"
    rows = db.execute(sql, params).fetchall()
    count = rows[0][-1] if rows else 0
    groups = [Group(str(row[0]), _totals(row[1:-1])) for row in reversed(rows)]
    if by == "task" and groups:
        ends = stops_of(db, [g.key for g in groups], "%s" if _is_team(db) else "?")
        for group in groups:
            end = ends.get(group.key)
            group.stop, group.text = (end.stop, end.text) if end else ("", "")
    return groups, count


def totals(db: sqlite3.Connection, flt: Filter = Filter()) -> Totals:
    table, aggregates, _ = flt.source(db)
    where, params = flt.where(db)
    return _totals(db.execute(f"SELECT {aggregates} FROM {table}{where}", params).fetchone())


def day_spend(db: sqlite3.Connection, day: str, exclude_session: str = "") -> tuple[float, int]:
    """(USD, tokens) recorded on `day` by sessions other than `exclude_session`."""
    usd, tokens = db.execute(
        "SELECT SUM(cost_usd), SUM(input_tokens + cache_read_tokens + cache_write_tokens "
        "+ output_tokens) FROM requests WHERE day = ? AND session_id != ?",
        (day, exclude_session),
    ).fetchone()
    return usd or 0.0, tokens or 0
