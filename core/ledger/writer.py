"""The token ledger: one SQLite row per model request, written off the agent's path.

`Ledger.record()` only queues the row; a background thread writes queued rows in one
transaction about every `flush_interval` seconds and at `close()` / interpreter exit, so a crash
loses at most the last interval. WAL mode, a busy timeout and `BEGIN IMMEDIATE` let several
sessions write the same file without "database is locked".
"""

from __future__ import annotations

import atexit
import operator
import os
import queue
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path

from core.ledger.stops import (
    SQLITE_UPSERT,
    TaskStop,
    m004_task_stops,
    m005_task_text,
    stop_values,
)
from my_agent.private import open_private, private_dir
from my_agent.team import user_name

Warn = Callable[[str], None]  # where a one-line warning for the user goes
BUSY_TIMEOUT_S = 30.0
FLUSH_INTERVAL_S = 1.0
MAX_UNWRITTEN = 100_000  # rows kept in memory while the file cannot be written


@dataclass
class LedgerRow:
    """One model request. Token counts are the provider's unless `estimated`."""

    ts: float  # Unix time the response ended
    day: str  # local calendar day, YYYY-MM-DD (budgets and daily reports group by it)
    session_id: str
    task_id: str
    project: str
    provider: str
    model: str
    input_tokens: int  # fresh (uncached) input
    cache_read_tokens: int
    cache_write_tokens: int
    output_tokens: int
    reasoning_tokens: int  # part of output, when the provider says
    latency_ms: float
    ttft_ms: float | None
    stop_reason: str
    cost_usd: float | None  # None: no price known for the model
    estimated: bool  # counted locally (interrupted stream), not reported by the provider
    user_name: str = ""  # who made it (the team ledger stores it; filled in by `record`)


# the SQLite ledger has one user, so no user column
COLUMNS = tuple(f.name for f in fields(LedgerRow) if f.name != "user_name")
_values = operator.attrgetter(*COLUMNS)
_INSERT = f"INSERT INTO requests ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"


def local_day(ts: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(ts))


# --- schema: numbered migrations, applied in order, tracked by PRAGMA user_version ------------
def m001_requests(db: sqlite3.Connection) -> None:
    db.execute("""CREATE TABLE requests (
        id INTEGER PRIMARY KEY,
        ts REAL NOT NULL, day TEXT NOT NULL, session_id TEXT NOT NULL, task_id TEXT NOT NULL,
        project TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL,
        input_tokens INTEGER NOT NULL, cache_read_tokens INTEGER NOT NULL,
        cache_write_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
        reasoning_tokens INTEGER NOT NULL, latency_ms REAL NOT NULL, ttft_ms REAL,
        stop_reason TEXT NOT NULL, cost_usd REAL, estimated INTEGER NOT NULL)""")


def m002_indexes(db: sqlite3.Connection) -> None:
    db.execute("CREATE INDEX requests_ts ON requests (ts)")
    db.execute("CREATE INDEX requests_day ON requests (day)")
    db.execute("CREATE INDEX requests_session ON requests (session_id)")


_SUMMED = (
    "input_tokens",
    "cache_read_tokens",
    "cache_write_tokens",
    "output_tokens",
    "reasoning_tokens",
)


def m003_rollup(db: sqlite3.Connection) -> None:
    """Per task/day/model totals kept by a trigger, so whole-ledger reports read ~10x fewer rows."""
    db.execute(f"""CREATE TABLE rollup (
        task_id TEXT NOT NULL, day TEXT NOT NULL, provider TEXT NOT NULL, model TEXT NOT NULL,
        session_id TEXT NOT NULL, project TEXT NOT NULL, requests INTEGER NOT NULL,
        {", ".join(f"{c} INTEGER NOT NULL" for c in _SUMMED)}, cost_usd REAL,
        unpriced INTEGER NOT NULL, estimated INTEGER NOT NULL, first_ts REAL NOT NULL,
        last_ts REAL NOT NULL, latency_ms REAL NOT NULL,
        PRIMARY KEY (task_id, day, provider, model)) WITHOUT ROWID""")
    summed = ", ".join(f"{c} = {c} + excluded.{c}" for c in _SUMMED)
    db.execute(f"""CREATE TRIGGER requests_rollup AFTER INSERT ON requests BEGIN
        INSERT INTO rollup VALUES (NEW.task_id, NEW.day, NEW.provider, NEW.model, NEW.session_id,
            NEW.project, 1, {", ".join(f"NEW.{c}" for c in _SUMMED)}, NEW.cost_usd,
            NEW.cost_usd IS NULL, NEW.estimated, NEW.ts, NEW.ts, NEW.latency_ms)
        ON CONFLICT (task_id, day, provider, model) DO UPDATE SET requests = requests + 1,
            {summed}, cost_usd = CASE WHEN excluded.cost_usd IS NULL THEN cost_usd
                                      ELSE IFNULL(cost_usd, 0) + excluded.cost_usd END,
            unpriced = unpriced + excluded.unpriced, estimated = estimated + excluded.estimated,
            first_ts = MIN(first_ts, excluded.first_ts), last_ts = MAX(last_ts, excluded.last_ts),
            latency_ms = latency_ms + excluded.latency_ms;
        END""")
    db.execute(f"""INSERT INTO rollup SELECT task_id, day, provider, model, MIN(session_id),
        MIN(project), COUNT(*), {", ".join(f"SUM({c})" for c in _SUMMED)}, SUM(cost_usd),
        SUM(cost_usd IS NULL), SUM(estimated), MIN(ts), MAX(ts), SUM(latency_ms)
        FROM requests GROUP BY task_id, day, provider, model""")
    db.execute("CREATE INDEX rollup_project ON rollup (project)")
    db.execute("CREATE INDEX rollup_day ON rollup (day)")


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    m001_requests,
    m002_indexes,
    m003_rollup,
    m004_task_stops,
    m005_task_text,
]


def migrate(db: sqlite3.Connection) -> None:
    """Apply the migrations this file has not seen yet, in one write transaction."""
    if db.execute("PRAGMA user_version").fetchone()[0] >= len(MIGRATIONS):
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        version = db.execute("PRAGMA user_version").fetchone()[0]
        for number, step in enumerate(MIGRATIONS[version:], start=version + 1):
            step(db)
            db.execute(f"PRAGMA user_version = {number}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def ledger_path(home: Path) -> Path:
    """The ledger's file in the Unicum home, where the agent writes it."""
    return home / "ledger.db"


def connect(path: Path | str, warn: Warn | None = None) -> sqlite3.Connection:
    """A connection in autocommit mode with WAL, a busy timeout and the schema up to date.
    A damaged file is moved aside (kept as `ledger.db.corrupt-<time>`) and a fresh ledger
    started; `warn` hears about it once."""
    try:
        return _open(path)
    except sqlite3.DatabaseError as exc:
        if str(path) == ":memory:" or not is_corruption(exc):
            raise
        start_over(Path(path), exc, warn)
        return _open(path)


SQLITE_CORRUPT, SQLITE_NOTADB = 11, 26


def is_corruption(exc: sqlite3.Error) -> bool:
    """A damaged or foreign file, as opposed to a busy, locked, constrained or unopenable one
    (only SQLite's own CORRUPT / NOTADB codes: nothing else may set a ledger aside)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:  # no code: judge by SQLite's fixed messages
        text = str(exc).lower()
        return "malformed" in text or "not a database" in text
    return code & 0xFF in (SQLITE_CORRUPT, SQLITE_NOTADB)


def start_over(path: Path, exc: sqlite3.Error, warn: Warn | None) -> None:
    """Set a damaged ledger aside and say so once; the caller opens a fresh one."""
    kept = set_aside(path)
    if warn is not None:
        where = f"; the damaged file is kept as {kept}" if kept else ""
        warn(f"the token ledger {path} was damaged ({exc}); started a new one{where}")


def set_aside(path: Path) -> Path | None:
    """Rename a damaged ledger (and its WAL files) out of the way; None if another process
    already did."""
    stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.urandom(2).hex()}"  # two in a second differ
    kept = path.with_name(f"{path.name}.corrupt-{stamp}")
    try:
        path.rename(kept)
    except FileNotFoundError:
        return None
    for suffix in ("-wal", "-shm"):
        try:
            path.with_name(path.name + suffix).rename(kept.with_name(kept.name + suffix))
        except FileNotFoundError:
            pass
    return kept


def _open(path: Path | str) -> sqlite3.Connection:
    if str(path) != ":memory:":
        private_dir(Path(path).parent)
    if str(path) != ":memory:" and not Path(path).exists():
        open_private(Path(path), "ab").close()  # sqlite's -wal and -shm take its bits
    db = sqlite3.connect(
        str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
    )
    try:
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        _enable_wal(db)
        db.execute("PRAGMA synchronous = NORMAL")
        migrate(db)
    except BaseException:
        db.close()
        raise
    return db


def _enable_wal(db: sqlite3.Connection, attempts: int = 200) -> None:
    """Switch to WAL. Two processes creating the ledger at once can get SQLITE_BUSY here without
    the busy handler being consulted, so wait and try again (the mode persists once set)."""
    for attempt in range(attempts):
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) and "busy" not in str(exc):
                raise
            if attempt == attempts - 1:
                raise
            time.sleep(0.01 + 0.002 * attempt)


Entry = LedgerRow | TaskStop  # what the writer queues: a request, or how a task ended


def insert_rows(db: sqlite3.Connection, rows: list[LedgerRow] | list[Entry]) -> None:
    """Requests and task ends in one transaction: all of them or none."""
    requests = [r for r in rows if isinstance(r, LedgerRow)]
    stops = [r for r in rows if isinstance(r, TaskStop)]
    db.execute("BEGIN IMMEDIATE")  # take the write lock now: waits (busy timeout), never deadlocks
    try:
        db.executemany(_INSERT, map(_values, requests))
        db.executemany(SQLITE_UPSERT, stop_values(stops))
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


# --- the writer ---------------------------------------------------------------------------
_LIVE: weakref.WeakSet[Ledger] = weakref.WeakSet()
_exit_hook: list[bool] = []


def flush_open_ledgers() -> None:
    """Write every queued row of this process now (e.g. before a report of this session)."""
    for ledger in list(_LIVE):
        ledger.flush()


def _close_all_at_exit() -> None:
    for ledger in list(_LIVE):
        ledger.close()


class Ledger:
    errors: tuple[type[Exception], ...] = (sqlite3.Error,)  # a failed write: kept, retried

    def __init__(
        self,
        path: Path,
        flush_interval: float = FLUSH_INTERVAL_S,
        warn: Warn | None = None,
        user: str = "",
    ) -> None:
        self.path = Path(path)
        self.where = str(self.path)  # for messages
        self.user = user or user_name()
        self.warn = warn  # the session's warning list: never printed from this thread
        self.flush_interval = flush_interval
        self._queue: queue.SimpleQueue[Entry] = queue.SimpleQueue()
        self._unwritten: list[Entry] = []  # drained but not yet committed (write failed)
        self._lock = threading.Lock()  # one writer at a time: the flusher or flush()/close()
        self._stop = threading.Event()
        self._db: sqlite3.Connection | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        self.failures = 0

    def record(self, row: Entry) -> None:
        """Queue one row (a request, or how a task ended); cheap, never blocks on the database."""
        row.user_name = row.user_name or self.user
        if self._thread is None and not self._closed:
            self._start()
        self._queue.put(row)

    def _start(self) -> None:
        _LIVE.add(self)
        if not _exit_hook:
            atexit.register(_close_all_at_exit)
            _exit_hook.append(True)
        self._thread = threading.Thread(target=self._run, name="unicum-ledger", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.flush_interval):
            self.flush()

    def flush(self) -> int:
        """Write what is queued now; returns the number of rows committed."""
        with self._lock:
            rows = self._unwritten
            while True:
                try:
                    rows.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            self._unwritten = []
            if not rows:
                return 0
            try:
                self._insert(rows)
            except self.errors as exc:
                self._unwritten = rows[-MAX_UNWRITTEN:]  # kept for the next flush
                self.failures += 1
                if self.failures == 1 and self.warn is not None:  # once, not every second
                    self.warn(
                        f"cannot write the token ledger {self.where} ({str(exc).strip()}); "
                        "will keep retrying"
                    )
                return 0
            return len(rows)

    def _insert(self, rows: list[Entry]) -> None:
        """Insert, opening the file on first use; a file damaged mid-session is set aside
        once and the rows go to a fresh ledger."""
        if self._db is None:
            self._db = connect(self.path, self.warn)
        try:
            insert_rows(self._db, rows)
        except sqlite3.DatabaseError as exc:
            if not is_corruption(exc):
                raise
            self._db.close()
            self._db = None
            start_over(self.path, exc, self.warn)
            self._db = connect(self.path, self.warn)
            insert_rows(self._db, rows)

    def close(self) -> None:
        """Stop the flusher, write everything queued and release the file."""
        self._closed = True
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()
        self.flush()
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
        _LIVE.discard(self)
