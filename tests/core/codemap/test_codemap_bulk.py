"""A first build writes its rows before its indexes (#30, speed): an index is built once, at
the end, and a build killed half-way leaves a database that gets its indexes back."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from core.codemap import CodeIndex, references

ROOT = Path(__file__).resolve().parents[3]
BUILD = "import sys; from pathlib import Path; from core.codemap import CodeIndex; " \
    "CodeIndex(Path(sys.argv[1]), sys.argv[2]).refresh(max_seconds=600, workers=1)"  # fmt: skip


def _indexes(db: sqlite3.Connection) -> set[str]:
    rows = db.execute("SELECT name FROM sqlite_master WHERE type='index' AND sql IS NOT NULL")
    return {name for (name,) in rows}


def _tree(root: Path, files: int) -> None:
    body = "".join(f"def f{i}(x):\n    return helper(x) + {i}\n\n\n" for i in range(60))
    for n in range(files):
        folder = root / f"pkg{n // 100}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{n}.py").write_text(f"from util import helper\n\n\n{body}")
    (root / "util.py").write_text("def helper(x):\n    return x\n")


def test_a_first_build_ends_with_its_indexes(tmp_path: Path):
    _tree(tmp_path / "p", 20)
    idx = CodeIndex(tmp_path / "p", tmp_path / "m.db")
    try:
        before = _indexes(idx.db)
        idx.refresh()
        assert _indexes(idx.db) == before and {"refs_name", "symbols_name"} <= before
        assert len(references(idx.db, "util.py:helper")[1]) == 20 * 60 + 20
    finally:
        idx.close()


def test_a_build_killed_half_way_gets_its_indexes_back(tmp_path: Path):
    _tree(tmp_path / "p", 1500)
    db_path = tmp_path / "m.db"
    CodeIndex(tmp_path / "p", db_path).close()  # the schema, with its indexes
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    build = subprocess.Popen([sys.executable, "-c", BUILD, str(tmp_path / "p"), str(db_path)],
                             env=env, cwd=ROOT)  # fmt: skip
    try:
        watch = sqlite3.connect(db_path, timeout=30)
        started = time.monotonic()
        while build.poll() is None and time.monotonic() - started < 120:
            if (
                "refs_name" not in _indexes(watch)
                and watch.execute("SELECT COUNT(*) FROM refs").fetchone()[0]
            ):
                break  # rows going in, indexes gone: kill it there
            time.sleep(0.01)
        watch.close()
        assert build.poll() is None, "the build ended before it could be interrupted"
    finally:
        build.kill()
        build.wait()
    idx = CodeIndex(tmp_path / "p", db_path)
    try:
        assert {"refs_name", "refs_file", "symbols_name", "binds_file"} <= _indexes(idx.db)
        idx.refresh()
        assert len(references(idx.db, "util.py:helper")[1]) == 1500 * 61
    finally:
        idx.close()


def test_the_binds_table_holds_only_what_sql_reads(tmp_path: Path):
    """Typed bindings live in the file's packed view; the table keeps what questions select
    by SQL: `__all__` entries, copies (`g = f`) and what functions return."""
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "m.py").write_text(
        "__all__ = ['f']\n\n\nclass Shape:\n    pass\n\n\n"
        "def f(x: Shape):\n    s = Shape()\n    return s\n\n\ng = f\ng(1)\n"
    )
    idx = CodeIndex(tmp_path / "p", tmp_path / "m.db")
    try:
        idx.refresh()
        kinds = {k for (k,) in idx.db.execute("SELECT kind FROM binds")}
        assert kinds == {"all", "gives", "var"}
        assert idx.db.execute("SELECT name, alias FROM binds WHERE kind='var'").fetchall() == [
            ("g", "f")
        ]
        sites = references(idx.db, "m.py:f", aliases=True)[1]
        assert {s.line for s in sites} >= {1, 14}  # `__all__`, and the call through the copy
    finally:
        idx.close()


def test_a_build_leaves_the_garbage_collector_as_it_found_it(tmp_path: Path):
    """Parsing pauses the collector (its rounds only visit short-lived tuples); a build
    gives it back enabled, and leaves it off when the caller had turned it off."""
    import gc

    _tree(tmp_path / "p", 3)
    was = gc.isenabled()
    try:
        for state in (True, False):
            (gc.enable if state else gc.disable)()
            idx = CodeIndex(tmp_path / "p", tmp_path / f"{state}.db")
            try:
                assert idx.refresh().parsed == 4
                assert idx.update_files(["util.py"]).files == 1
            finally:
                idx.close()
            assert gc.isenabled() is state
    finally:
        (gc.enable if was else gc.disable)()
