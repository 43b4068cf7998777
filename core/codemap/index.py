"""The per-project SQLite index: schema, and a refresh that re-parses only changed files."""

from __future__ import annotations

import gc
import os
import sqlite3
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from core.codemap.fileview import SQL_BINDS, SQL_BINDS_JS, ViewCache, pack_view
from core.codemap.langs import EXTENSIONS, language_family
from core.codemap.packages import config_files, read_aliases, remap_imports, stamp
from core.codemap.rank import FULL_REBUILD_NAMES, update_edges
from core.codemap.schema import Transaction, content_hash, drop_indexes, open_db, restore_indexes
from core.codemap.walk import MAX_FILES, walk_sources
from my_agent.capped import SOURCE, read_capped

POOL_MIN_BYTES = 6_000_000  # below this (~150k lines), in-process parsing beats spawning workers


def default_workers() -> int:
    """Measured on 2 shared cores: /usr/include (2.5M lines) took 55 s in one process and 54 s
    with two workers, so the pool pays only with cores to spare: one per core beyond two."""
    cores = os.cpu_count() or 1
    return 1 if cores <= 2 else cores - 1


CHUNK_FILES = 48

Parsed = tuple[str, int, int, str, str, int, list | None, list | None, list | None]


def parse_one(root: str, rel: str, stat: tuple[int, int], old_hash: str) -> Parsed:
    """Read, hash and (when the content changed) parse one file; runs in workers too."""
    from core.codemap.parse import parse_source

    lang = EXTENSIONS.get(os.path.splitext(rel)[1].lower(), "")
    try:
        data = read_capped(os.path.join(root, rel), SOURCE)  # a file swapped since the walk
    except OSError:
        return (rel, stat[0], stat[1], "", lang, 0, [], [], [])
    digest = content_hash(data)
    if digest == old_hash:
        return (rel, stat[0], stat[1], digest, lang, 0, None, None, None)
    lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    if b"\0" in data[:8192]:
        return (rel, stat[0], stat[1], digest, "binary", lines, [], [], [])
    symbols, refs, binds = parse_source(lang, data, rel)
    return (rel, stat[0], stat[1], digest, lang, lines, symbols, refs, binds)


_TEST_PARTS = frozenset({"test", "tests", "testing", "__tests__", "idle_test"})


def _overview_order(rel: str) -> tuple[bool, int, str]:
    """Parse order: code before tests, shallow files before deep ones, so a build cut off at
    its deadline has ranked what an overview shows first."""
    parts = rel.split("/")
    is_test = any(p in _TEST_PARTS for p in parts[:-1]) or parts[-1].startswith("test_")
    return (is_test, len(parts), rel)


def _parse_chunk(root: str, jobs: list[tuple[str, tuple[int, int], str]]) -> list[Parsed]:
    return [parse_one(root, rel, stat, old) for rel, stat, old in jobs]


@dataclass
class RefreshStats:
    files: int = 0
    parsed: int = 0
    removed: int = 0
    lines: int = 0
    seconds: float = 0.0
    truncated: str = ""
    stopped: bool = False  # parsing stopped at the deadline with files left


class CodeIndex:
    """One project's index. Thread-safe: one refresh at a time; queries share the connection."""

    def __init__(self, root: Path, db_path: Path | str, max_files: int = MAX_FILES) -> None:
        self.root = root.resolve()
        try:
            self.db = open_db(db_path)
        except sqlite3.DatabaseError:  # damaged (it is written without fsync): start over
            for suffix in ("", "-wal", "-shm"):
                Path(f"{db_path}{suffix}").unlink(missing_ok=True)
            self.db = open_db(db_path)
        self.max_files = max_files
        self.lock = threading.RLock()
        self._touched: set[str] | None = set()  # names whose edges must be recomputed
        self.cache = ViewCache()  # what questions share; writes drop what they change
        self._aliases: tuple | None = None  # the project's own JS/TS package names (packages.py)
        self._paths: set[str] = set()
        self._alias_stamp = ""

    def _update_graph(self) -> None:
        """Recompute the edges of the names the last writes touched (all after a migration)."""
        stale = self.db.execute("SELECT value FROM meta WHERE key='edges_stale'").fetchone()
        names = None if stale and stale[0] == "1" else self._touched
        if names is None or names:
            with self._transaction():
                update_edges(self.db, names)
                self.db.execute("DELETE FROM meta WHERE key='edges_stale'")
        self._touched = set()

    def close(self) -> None:
        self.db.close()

    def refresh(self, max_seconds: float = 60.0, workers: int | None = None) -> RefreshStats:
        """Bring the index up to date with the folder; stops parsing new work at the deadline."""
        started = time.monotonic()
        with self.lock:
            stats = self._refresh(started + max_seconds, workers)
            self._update_graph()
        stats.seconds = time.monotonic() - started
        return stats

    def _refresh(self, deadline: float, workers: int | None) -> RefreshStats:
        walk = walk_sources(self.root, self.max_files)
        known = {
            p: (i, m, s, h)
            for i, p, m, s, h in self.db.execute("SELECT id, path, mtime_ns, size, hash FROM files")
        }
        stats = RefreshStats(files=len(walk.files), truncated=walk.truncated)
        if not known:
            self._touched = None  # a first build: every edge is computed at the end, at once
        gone = [known[p][0] for p in known if p not in walk.files]
        rekey = self._read_aliases(walk.files)  # other aliases: JS/TS imports are keyed again
        jobs = sorted(
            (
                (rel, st, "" if again else known[rel][3] if rel in known else "")
                for rel, st in walk.files.items()
                for again in (rekey and language_family(rel) == "javascript",)
                if rel not in known or known[rel][1:3] != st or again
            ),
            key=lambda job: _overview_order(job[0]),
        )
        if gone:
            with self._transaction():
                self._delete(gone)
            stats.removed = len(gone)
        if jobs and not known:
            drop_indexes(self.db)  # a first build: each index is built once, at the end
            try:
                self._apply(jobs, known, stats, deadline, workers)
            finally:
                restore_indexes(self.db)
        elif jobs:
            self._apply(jobs, known, stats, deadline, workers)
        if rekey and not stats.stopped:
            with self._transaction():
                self.db.execute("INSERT OR REPLACE INTO meta VALUES ('aliases', ?)", (rekey,))
        return stats

    def _read_aliases(self, files: dict | set) -> str:
        """Read the JS/TS package aliases; their stamp when it differs from the stored one."""
        configs = config_files(str(self.root), files)
        now = stamp(configs)
        if now != self._alias_stamp or len(files) != len(self._paths):
            self._paths = set(files)
            self._aliases = read_aliases(str(self.root), configs, self._paths) if configs else ()
            self._alias_stamp = now
        row = self.db.execute("SELECT value FROM meta WHERE key='aliases'").fetchone()
        return "" if (row[0] if row else stamp([])) == now else now

    def update_files(self, paths: list[str]) -> RefreshStats:
        """Re-index just these project-relative files (after an edit); missing ones are dropped."""
        started = time.monotonic()
        stats = RefreshStats()
        with self.lock:
            known: dict[str, tuple] = {}
            for rel in paths:
                row = self.db.execute(
                    "SELECT id, mtime_ns, size, hash FROM files WHERE path=?", (rel,)
                ).fetchone()
                if row:
                    known[rel] = row
            jobs, gone = [], []
            for rel in paths:
                try:
                    st = os.stat(self.root / rel)
                except OSError:
                    if rel in known:
                        gone.append(known[rel][0])
                    continue
                if os.path.splitext(rel)[1].lower() in EXTENSIONS:
                    jobs.append((rel, (st.st_mtime_ns, st.st_size), known.get(rel, ("",) * 4)[3]))
            if gone:
                with self._transaction():
                    self._delete(gone)
                stats.removed = len(gone)
            if self._aliases is None and any(language_family(j[0]) == "javascript" for j in jobs):
                self._read_aliases({p for (p,) in self.db.execute("SELECT path FROM files")})
            self._apply(jobs, known, stats, started + 60, 1)
            self._update_graph()
        stats.files, stats.seconds = len(paths), time.monotonic() - started
        return stats

    def _apply(
        self, jobs: list, known: dict, stats: RefreshStats, deadline: float, workers: int | None
    ) -> None:
        """Parse and write `jobs` in batches with the garbage collector paused: parsing makes
        millions of short-lived tuples, lists and dicts and no cycles (none left after a
        cold stdlib build), which its rounds would only visit (3.6% of that build's CPU, seven
        pairs of alternated builds)."""
        paused = gc.isenabled()
        gc.disable()
        try:
            self._apply_batches(jobs, known, stats, deadline, workers)
        finally:
            if paused:
                gc.enable()

    def _apply_batches(
        self, jobs: list, known: dict, stats: RefreshStats, deadline: float, workers: int | None
    ) -> None:
        done = 0
        for batch in self._parse_batches(jobs, deadline, workers):
            done += len(batch)
            with self._transaction():
                rows = _Rows()
                for rel, mtime, size, digest, lang, lines, symbols, refs, binds in batch:
                    old = known.get(rel)
                    if symbols is None and old is not None:
                        self.db.execute(
                            "UPDATE files SET mtime_ns=?, size=? WHERE id=?", (mtime, size, old[0])
                        )
                        continue
                    if old is not None:
                        self._delete([old[0]])
                    if self._aliases and symbols and language_family(rel) == "javascript":
                        symbols = remap_imports(symbols, self._aliases, self._paths)
                    self._insert(
                        (rel, mtime, size, digest, lang, lines),
                        symbols or [],
                        refs or [],
                        binds or [],
                        rows,
                    )
                    stats.parsed += 1
                    stats.lines += lines
                rows.write(self.db)
        if done < len(jobs):  # the batches stop at the deadline (_parse_batches)
            stats.truncated = stats.truncated or "stopped at the time limit; run again"
            stats.stopped = True

    def _parse_batches(
        self, jobs: list, deadline: float, workers: int | None
    ) -> Iterator[list[Parsed]]:
        root = str(self.root)
        size = sum(st[1] for _, st, _ in jobs)
        count = workers if workers is not None else default_workers()
        if count <= 1 or size < POOL_MIN_BYTES:
            for start in range(0, len(jobs), CHUNK_FILES):
                yield _parse_chunk(root, jobs[start : start + CHUNK_FILES])
                if time.monotonic() > deadline:
                    return
            return
        yield from _pool_batches(root, jobs, count, deadline)

    def _delete(self, file_ids: list[int]) -> None:
        rows = [(i,) for i in file_ids]
        marks = ",".join("?" * len(file_ids))
        paths = self.db.execute(f"SELECT path FROM files WHERE id IN ({marks})", file_ids)
        self.cache.changed([p for (p,) in paths])
        if self._touched is not None:
            for fid in file_ids:
                self._touched.update(
                    n
                    for (n,) in self.db.execute(
                        "SELECT name FROM symbols WHERE file_id=? UNION "
                        "SELECT name FROM refs WHERE file_id=? AND kind != 'attribute'",
                        (fid, fid),
                    )
                )

        self.db.executemany("DELETE FROM symbols WHERE file_id=?", rows)
        self.db.executemany("DELETE FROM refs WHERE file_id=?", rows)
        self.db.executemany("DELETE FROM binds WHERE file_id=?", rows)
        self.db.executemany("DELETE FROM views WHERE file_id=?", rows)
        self.db.executemany("DELETE FROM files WHERE id=?", rows)

    def _insert(self, row: tuple, symbols: list, refs: list, binds: list, rows: _Rows) -> None:
        """`row` = (path, mtime_ns, size, hash, lang, lines); the file's rows go to `rows`,
        written once per batch."""
        cur = self.db.execute(
            "INSERT INTO files(path, mtime_ns, size, hash, lang, lines) VALUES (?,?,?,?,?,?)", row
        )
        fid = cur.lastrowid
        self.cache.changed([row[0]])
        if self._touched is not None:
            self._touched.update(s[0] for s in symbols)
            self._touched.update(r[0] for r in refs if r[2] != "attribute")  # see rank.py
            if len(self._touched) > FULL_REBUILD_NAMES:
                self._touched = None
        rows.symbols += [(fid, *s) for s in symbols]
        rows.refs += [(fid, *r) for r in refs]
        kinds = SQL_BINDS_JS if language_family(row[0]) == "javascript" else SQL_BINDS
        rows.binds += [  # the others are read only from the view
            (fid, *b, _alias(b[3])) for b in binds if b[0] in kinds or b[3][:1] == "="
        ]
        rows.views.append((fid, pack_view(row[0], symbols, binds)))

    def _transaction(self):
        return Transaction(self.db)


@dataclass
class _Rows:
    """A batch's rows, written with one statement per table."""

    symbols: list = field(default_factory=list)
    refs: list = field(default_factory=list)
    binds: list = field(default_factory=list)
    views: list = field(default_factory=list)

    def write(self, db: sqlite3.Connection) -> None:
        db.executemany("INSERT INTO symbols VALUES (?,?,?,?,?,?,?,?,?,?)", self.symbols)
        db.executemany("INSERT INTO refs VALUES (?,?,?,?,?,?)", self.refs)
        db.executemany("INSERT INTO binds VALUES (?,?,?,?,?,?,?)", self.binds)
        db.executemany("INSERT INTO views VALUES (?,?)", self.views)


def _alias(type_name: str) -> str | None:
    """'=self.registry.add' → 'add': the name a copy was taken of."""
    return type_name[1:].rsplit(".", 1)[-1] if type_name.startswith("=") else None


def _pool_batches(root: str, jobs: list, count: int, deadline: float) -> Iterator[list[Parsed]]:
    """Parse in worker processes, at most two chunks per worker in flight; each result is
    handed on (and written) before more are asked for, so the parent never holds them all."""
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    starts = iter(range(0, len(jobs), CHUNK_FILES))
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=count, mp_context=ctx) as pool:
        pending: set[Future] = set()

        def submit() -> None:
            start = next(starts, None)
            if start is not None:
                pending.add(pool.submit(_parse_chunk, root, jobs[start : start + CHUNK_FILES]))

        for _ in range(count * 2):
            submit()
        while pending:
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                pending.discard(future)
                yield future.result()
                if time.monotonic() > deadline:
                    for other in pending:
                        other.cancel()
                    return
                submit()
