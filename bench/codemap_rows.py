"""Whether a change to the code map changes any answer: build each tree's index with this
checkout's code and write a digest of every row, per table and file; compare two such dumps
(one made from each checkout) and list the files whose rows differ. A speed round keeps a step
only when this says `0 differences`.

    python bench/codemap_rows.py dump OUT.json TREE [TREE ...]   # in each checkout
    python bench/codemap_rows.py compare BEFORE.json AFTER.json  # exit 1 when rows differ
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sqlite3
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.codemap import CodeIndex

PER_FILE = ("symbols", "refs", "binds", "views")  # rows keyed by file_id, their first column
SHOWN = 10  # differing files listed per comparison


def dump_tree(root: Path) -> dict[str, dict[str, str]]:
    """{table: {path or '*': digest}} of one fresh single-process build of `root`."""
    with tempfile.TemporaryDirectory() as tmp:
        index = CodeIndex(root, Path(tmp) / "map.db")
        index.refresh(max_seconds=3600, workers=1)
        try:
            return _digests(index.db)
        finally:
            index.close()


def _digests(db: sqlite3.Connection) -> dict[str, dict[str, str]]:
    paths = dict(db.execute("SELECT id, path FROM files"))
    out: dict[str, dict[str, str]] = {}
    for table in PER_FILE:
        grouped: dict[str, list] = defaultdict(list)
        for row in db.execute(f"SELECT * FROM {table}"):
            grouped[paths[row[0]]].append(row[1:])
        out[table] = {path: _digest(rows) for path, rows in grouped.items()}
    files = db.execute("SELECT path, size, hash, lang, lines FROM files").fetchall()
    out["files"] = {row[0]: _digest([row]) for row in files}
    others = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    for table in sorted(set(others) - set(PER_FILE) - {"files", "meta"}):
        out[table] = {"*": _digest(db.execute(f"SELECT * FROM {table}").fetchall())}
    return out


def _digest(rows: list) -> str:
    return hashlib.sha256(repr(sorted(rows, key=repr)).encode()).hexdigest()[:16]


def differences(before: dict, after: dict) -> list[str]:
    """One line per (tree, table, file) whose rows are not the same in both dumps."""
    lines = []
    for tree in sorted(set(before) | set(after)):
        old, new = before.get(tree, {}), after.get(tree, {})
        for table in sorted(set(old) | set(new)):
            a, b = old.get(table, {}), new.get(table, {})
            lines += [
                f"{tree} {table} {p}" for p in sorted(set(a) | set(b)) if a.get(p) != b.get(p)
            ]
    return lines


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "dump":
        dumps = {str(Path(t).resolve()): dump_tree(Path(t)) for t in args.trees}
        Path(args.out).write_text(json.dumps(dumps, sort_keys=True))
        print(
            f"{args.out}: {len(dumps)} trees, {sum(len(d['files']) for d in dumps.values())} files"
        )
        return 0
    before, after = (json.loads(Path(p).read_text()) for p in (args.before, args.after))
    diff = differences(before, after)
    print("\n".join(diff[:SHOWN] + ([f"… {len(diff) - SHOWN} more"] if len(diff) > SHOWN else [])))
    print(f"{len(diff)} differences over {len(before)} trees")
    return 1 if diff else 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    dump = sub.add_parser("dump", help="build each tree and write its rows' digests")
    dump.add_argument("out")
    dump.add_argument("trees", nargs="+")
    compare = sub.add_parser("compare", help="list the files whose rows differ")
    compare.add_argument("before")
    compare.add_argument("after")
    return parser


if __name__ == "__main__":
    sys.exit(main())
