"""How each task ended (`done`, `max_turns`, `repeated`, `budget`, `interrupted`, `error`): one
row per task beside its requests, written by the same queue and transaction as they are.

A resumed task (a budget raised) ends again under the same id: the last end is kept.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

STOPS = ("done", "max_turns", "repeated", "budget", "interrupted", "error")


@dataclass
class TaskStop:
    ts: float  # Unix time the task ended
    session_id: str
    task_id: str
    stop: str  # one of STOPS
    user_name: str = ""  # the team ledger stores it; filled in when the team ledger records it


def m004_task_stops(db: sqlite3.Connection) -> None:
    db.execute("""CREATE TABLE task_stops (
        task_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, stop TEXT NOT NULL,
        ts REAL NOT NULL) WITHOUT ROWID""")


_ON_CONFLICT = "ON CONFLICT (task_id) DO UPDATE SET stop = excluded.stop, ts = excluded.ts"
SQLITE_UPSERT = (
    f"INSERT INTO task_stops (task_id, session_id, stop, ts) VALUES (?, ?, ?, ?) {_ON_CONFLICT}"
)
PG_UPSERT = (
    "INSERT INTO task_stops (task_id, session_id, stop, ts, user_name) "
    f"VALUES (%s, %s, %s, %s, %s) {_ON_CONFLICT}"
)


def stop_values(stops: list[TaskStop]) -> list[tuple[str, str, str, float]]:
    return [(s.task_id, s.session_id, s.stop, s.ts) for s in stops]


def stops_of(db: Any, task_ids: list[str], mark: str = "?") -> dict[str, str]:
    """task id → how it ended, for the tasks that have a recorded end (older ledgers: none)."""
    found: dict[str, str] = {}
    for start in range(0, len(task_ids), 500):  # SQLite's parameter limit, with room
        chunk = task_ids[start : start + 500]
        marks = ", ".join([mark] * len(chunk))
        sql = f"SELECT task_id, stop FROM task_stops WHERE task_id IN ({marks})"
        found.update((str(t), str(s)) for t, s in db.execute(sql, chunk).fetchall())
    return found
