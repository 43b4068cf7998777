"""A question's time limit, checked wherever its time goes: the loops over rows and sites, each
file view loaded, and SQL statements themselves (through SQLite's progress handler)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

SQL_STEPS = 2_000  # SQLite virtual-machine steps between two looks at the clock


class OutOfTime(Exception):
    """The time limit passed; what the question found so far stands."""


class Deadline:
    """`seconds` from now on `clock` (None: no limit). Once passed it stays passed, and the
    clock is not read again."""

    def __init__(self, seconds: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.at = None if seconds is None else clock() + seconds
        self.passed = False

    def late(self) -> bool:
        if not self.passed and self.at is not None and self.clock() >= self.at:
            self.passed = True
        return self.passed

    def check(self) -> None:
        """Raise OutOfTime when the limit has passed."""
        if self.late():
            raise OutOfTime

    @contextmanager
    def watching(self, db: sqlite3.Connection) -> Iterator[None]:
        """SQL statements run while inside stop at the limit: OutOfTime, not a half answer."""
        db.set_progress_handler(self.late, SQL_STEPS)
        try:
            yield
        except sqlite3.OperationalError:
            if not self.passed:  # interrupted by the handler only once the limit has passed
                raise
            raise OutOfTime from None
        finally:
            db.set_progress_handler(None, 0)


NO_LIMIT = Deadline(None)
