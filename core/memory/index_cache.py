"""The memory index saved on disk between sessions, so a session start need not rebuild it.

The cache is the index's SQLite database as is (FTS5 rows of search text). It is checked row
by row, not trusted as a whole: a loaded row serves an entry only when its text is the entry's
text, so a cache older than the memory file (entries added, changed, removed since) is never
wrong, only less useful: rows no entry claims are skipped, and new rows are added. Once many
rows were added since it was read (the memory changed a lot, or there was no cache), the index
saves itself again. A missing, unreadable or other-format cache is rebuilt; a cache that
cannot be saved is simply not there next time. Text that leaves memory (an entry removed,
forgotten by consolidation, or its content changed) takes the cache with it: the file is
deleted, and an index that held the text is not saved again (the next session saves one
built from the entries left).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path

from my_agent.capped import MEMORY, read_capped
from my_agent.files import atomic_write

FORMAT = 1  # PRAGMA user_version: the schema and tokenizer below
CREATE = "CREATE VIRTUAL TABLE docs USING fts5(body, tokenize='porter unicode61')"
SAVE_AFTER = 256  # rows added since the cache was read, at the least ...
SAVE_SHARE = 20  # ... and 1/20 of the rows


def new_index() -> sqlite3.Connection:
    db = sqlite3.connect(":memory:", check_same_thread=False)
    db.execute(CREATE)
    db.execute(f"PRAGMA user_version = {FORMAT}")
    return db


class IndexCache:
    """One cache file (per memory store: its global and project entries)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> tuple[sqlite3.Connection, list[tuple[int, str]]] | None:
        """An in-memory copy of the saved index and its rows (rowid, body); None when there
        is no usable cache."""
        try:
            data = read_capped(self.path, MEMORY)
        except OSError:
            return None
        db = sqlite3.connect(":memory:", check_same_thread=False)
        try:
            db.deserialize(data)
            if db.execute("PRAGMA user_version").fetchone()[0] != FORMAT:
                raise sqlite3.DatabaseError("another format")
            return db, db.execute("SELECT rowid, body FROM docs").fetchall()
        except sqlite3.Error:
            db.close()
            return None

    def worth_saving(self, added: int, rows: int) -> bool:
        return added >= SAVE_AFTER and added * SAVE_SHARE >= rows

    def delete(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink(missing_ok=True)

    def save(self, db: sqlite3.Connection) -> None:
        """Write the index whole (never half a file: `atomic_write`), owner-only as
        memory.json is (it holds the entries' text); failures are ignored."""
        with contextlib.suppress(OSError, sqlite3.Error):
            atomic_write(self.path, db.serialize(), mode=0o600)
