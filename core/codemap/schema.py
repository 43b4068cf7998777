"""The index's SQLite schema: its migrations, opening (and migrating) a database, and the
parser stamp that makes files parsed by other queries parse again."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

from core.codemap.langs import CAPTURED, QUERIES
from core.codemap.tsbinds import QUERY as TS_QUERY
from my_agent.private import open_private, private_dir


def _m001_tables(db: sqlite3.Connection) -> None:
    _run_script(
        db,
        """
        CREATE TABLE files(id INTEGER PRIMARY KEY, path TEXT UNIQUE NOT NULL, mtime_ns INTEGER,
                           size INTEGER, hash TEXT, lang TEXT, lines INTEGER);
        CREATE TABLE symbols(file_id INTEGER NOT NULL, name TEXT NOT NULL, kind TEXT, line INTEGER,
                             end_line INTEGER, scope TEXT, signature TEXT, exported INTEGER,
                             module TEXT, orig TEXT);
        CREATE INDEX symbols_name ON symbols(name);
        CREATE INDEX symbols_file ON symbols(file_id);
        CREATE INDEX symbols_orig ON symbols(orig) WHERE kind = 'import';
        CREATE TABLE refs(file_id INTEGER NOT NULL, name TEXT NOT NULL, line INTEGER, kind TEXT,
                          scope TEXT, receiver TEXT);
        CREATE INDEX refs_name ON refs(name);
        CREATE INDEX refs_file ON refs(file_id);
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
    """,
    )


def _run_script(db: sqlite3.Connection, script: str) -> None:
    """executescript() would commit; run each statement inside the caller's transaction."""
    for statement in script.split(";"):
        if statement.strip():
            db.execute(statement)


def _m002_binds(db: sqlite3.Connection) -> None:
    """Bindings for receiver types; every file is parsed again to fill them."""
    _run_script(
        db,
        """
        CREATE TABLE binds(file_id INTEGER NOT NULL, kind TEXT NOT NULL, scope TEXT, name TEXT,
                           type TEXT, line INTEGER);
        CREATE INDEX binds_file ON binds(file_id);
        DELETE FROM symbols; DELETE FROM refs; DELETE FROM files;
    """,
    )


def _m003_graph(db: sqlite3.Connection) -> None:
    """The reference graph and its ranks, kept in the index (see rank.py)."""
    _run_script(
        db,
        """
        CREATE TABLE edges(src INTEGER NOT NULL, dst INTEGER NOT NULL, name TEXT NOT NULL,
                           weight REAL);
        CREATE INDEX edges_name ON edges(name);
        CREATE TABLE ranks(file_id INTEGER PRIMARY KEY, rank REAL);
        CREATE TABLE flows(file_id INTEGER NOT NULL, name TEXT NOT NULL, flow REAL);
        INSERT OR REPLACE INTO meta VALUES ('edges_stale', '1');
    """,
    )


def _m004_aliases(db: sqlite3.Connection) -> None:
    """`b = a.f` binds b to what f holds: the alias column (f) finds such copies by index."""
    _run_script(
        db,
        """
        ALTER TABLE binds ADD COLUMN alias TEXT;
        CREATE INDEX binds_alias ON binds(alias) WHERE alias IS NOT NULL;
        DELETE FROM symbols; DELETE FROM refs; DELETE FROM binds; DELETE FROM files;
        INSERT OR REPLACE INTO meta VALUES ('edges_stale', '1');
    """,
    )


def _m005_views(db: sqlite3.Connection) -> None:
    """Each file's bindings as the resolver reads them, packed in one row (fileview.py):
    a question reads one row per file; every file is parsed again to fill them."""
    _run_script(
        db,
        """
        CREATE TABLE views(file_id INTEGER PRIMARY KEY, data BLOB NOT NULL);
        DELETE FROM symbols; DELETE FROM refs; DELETE FROM binds; DELETE FROM files;
        INSERT OR REPLACE INTO meta VALUES ('edges_stale', '1');
    """,
    )


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [
    _m001_tables,
    _m002_binds,
    _m003_graph,
    _m004_aliases,
    _m005_views,
]


def open_db(path: Path | str) -> sqlite3.Connection:
    """Open (creating and migrating) an index database; ':memory:' works for tests."""
    if str(path) != ":memory:":
        private_dir(Path(path).parent)
        if not Path(path).exists():
            open_private(Path(path), "ab").close()  # owner-only, and so its -wal and -shm
    db = sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")  # a derived cache: rebuilt if ever damaged
    if db.execute("PRAGMA user_version").fetchone()[0] < len(MIGRATIONS):
        with Transaction(db):  # re-read inside the lock: another process may have migrated
            version = db.execute("PRAGMA user_version").fetchone()[0]
            for number, migrate in enumerate(MIGRATIONS[version:], start=version + 1):
                migrate(db)
                db.execute(f"PRAGMA user_version={number}")
    _check_parser(db)
    restore_indexes(db)
    return db


_BULK_TABLES = ("symbols", "refs", "binds")


def drop_indexes(db: sqlite3.Connection) -> None:
    """Before a first build: rows go in faster without indexes, and each index is built once at
    the end (`restore_indexes`); their definitions wait in `meta`, so an interrupted build gets
    them back when the database is next opened."""
    marks = ",".join("?" * len(_BULK_TABLES))
    rows = db.execute(
        f"SELECT name, sql FROM sqlite_master WHERE type='index' AND sql IS NOT NULL "
        f"AND tbl_name IN ({marks})",
        _BULK_TABLES,
    ).fetchall()
    if not rows:
        return
    with Transaction(db):
        db.execute(
            "INSERT OR REPLACE INTO meta VALUES ('dropped_indexes', ?)",
            (json.dumps([sql for _, sql in rows]),),
        )
        for name, _ in rows:
            db.execute(f'DROP INDEX "{name}"')


def restore_indexes(db: sqlite3.Connection) -> None:
    row = db.execute("SELECT value FROM meta WHERE key='dropped_indexes'").fetchone()
    if row is None:
        return
    with Transaction(db):
        for sql in json.loads(row[0]):
            db.execute(sql)
        db.execute("DELETE FROM meta WHERE key='dropped_indexes'")


def content_hash(data: bytes) -> str:
    return hashlib.blake2b(data, digest_size=12).hexdigest()


PARSER = content_hash(
    ("parse 10\n" + "".join(QUERIES.values()) + "".join(CAPTURED.values()) + TS_QUERY).encode()
)


def _check_parser(db: sqlite3.Connection) -> None:
    """Files parsed by other queries or another parser are parsed again (all, lazily)."""
    row = db.execute("SELECT value FROM meta WHERE key='parser'").fetchone()
    if row is not None and row[0] == PARSER:
        return
    with Transaction(db):
        if row is not None or db.execute("SELECT 1 FROM files LIMIT 1").fetchone():
            # an index from another parser: start over, edges included
            for table in ("symbols", "refs", "binds", "views", "edges", "files"):
                db.execute(f"DELETE FROM {table}")
        db.execute("INSERT OR REPLACE INTO meta VALUES ('parser', ?)", (PARSER,))


class Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind, exc, tb) -> None:
        self.db.execute("ROLLBACK" if kind else "COMMIT")
