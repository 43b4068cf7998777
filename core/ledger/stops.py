"""Each task's row beside its requests: what the user typed for it (`text`, written when the task
starts) and how it ended (`done`, `max_turns`, `repeated`, `budget`, `interrupted`, `error`;
"" while it runs or when a killed process never said), written by the same queue and
transaction as the requests are.

A resumed task (a budget raised) ends again under the same id: the last end is kept, and so is
the text when a later write carries none.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

STOPS = ("done", "max_turns", "repeated", "budget", "interrupted", "error")
MAX_TEXT = 2000  # characters of the typed task kept (a label, not the task's whole input)


@dataclass
class TaskStop:
    ts: float  # Unix time the task started ("" stop) or ended
    session_id: str
    task_id: str
    stop: str  # one of STOPS, or "" when the task has started and not ended
    user_name: str = ""  # the team ledger stores it; filled in when the team ledger records it
    text: str = ""  # what the user typed for the task ("": not known to this write)
    project: str = ""  # the team ledger's row-level security answers to it (SQLite: unused)


@dataclass(frozen=True)
class TaskEnd:
    """What the ledger knows of a task besides its requests."""

    stop: str
    text: str


def m004_task_stops(db: sqlite3.Connection) -> None:
    db.execute("""CREATE TABLE task_stops (
        task_id TEXT PRIMARY KEY, session_id TEXT NOT NULL, stop TEXT NOT NULL,
        ts REAL NOT NULL) WITHOUT ROWID""")


def m005_task_text(db: Any) -> None:
    """What the user typed, with the task (SQLite and PostgreSQL alike)."""
    db.execute("ALTER TABLE task_stops ADD COLUMN text TEXT NOT NULL DEFAULT ''")


_ON_CONFLICT = (
    "ON CONFLICT (task_id) DO UPDATE SET stop = excluded.stop, ts = excluded.ts, "
    "text = COALESCE(NULLIF(excluded.text, ''), task_stops.text)"
)
SQLITE_UPSERT = (
    "INSERT INTO task_stops (task_id, session_id, stop, ts, text) VALUES (?, ?, ?, ?, ?) "
    f"{_ON_CONFLICT}"
)
PG_UPSERT = (
    "INSERT INTO task_stops (task_id, session_id, stop, ts, text, user_name, project) "
    f"VALUES (%s, %s, %s, %s, %s, %s, %s) {_ON_CONFLICT}"
)


def stop_values(stops: list[TaskStop]) -> list[tuple[str, str, str, float, str]]:
    return [(s.task_id, s.session_id, s.stop, s.ts, s.text[:MAX_TEXT]) for s in stops]


def stops_of(db: Any, task_ids: list[str], mark: str = "?") -> dict[str, TaskEnd]:
    """task id → how it ended and what was typed, for the tasks the ledger has a row of
    (older ledgers: none)."""
    found: dict[str, TaskEnd] = {}
    for start in range(0, len(task_ids), 500):  # SQLite's parameter limit, with room
        chunk = task_ids[start : start + 500]
        marks = ", ".join([mark] * len(chunk))
        sql = f"SELECT task_id, stop, text FROM task_stops WHERE task_id IN ({marks})"
        found.update(
            (str(t), TaskEnd(str(s), str(x))) for t, s, x in db.execute(sql, chunk).fetchall()
        )
    return found
