"""The file reference graph and its PageRank, stored in the index and kept up to date.

Edges (referencing file → defining file, one per name) are recomputed only for the names a
changed file defines or references; the ranks, and how much rank flows to each name of a file,
are recomputed once after a refresh that changed edges. A task hint then only reorders: files
it mentions (by path, name, or a name they define) come first.
"""

from __future__ import annotations

import re
import sqlite3
from collections import defaultdict

from core.codemap.langs import FAMILIES

MAX_DEFINERS = 5  # a name defined in more files than this says little about any of them
SYMBOLS_PER_FILE = 6
FULL_REBUILD_NAMES = 5000  # beyond this many changed names, recompute every edge at once
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")

_FAMILY_SQL = (
    "CASE lang "
    + " ".join(f"WHEN '{lang}' THEN '{family}'" for lang, family in FAMILIES.items())
    + " ELSE lang END"
)


def _edges_sql(only_dirty: bool) -> str:
    """Calls through an unknown lower-case receiver (`x.lower()`) count a tenth: they often
    mean some other type's method of the same name; `_private` names count a tenth too.
    Attributes read without a call (`x.name`) are no edge: mostly data, and too many."""
    dirty = "name IN (SELECT name FROM temp.dirty_names)"
    def_filter = f"AND {dirty}" if only_dirty else ""
    return f"""
        WITH fam AS (SELECT id, {_FAMILY_SQL} AS family FROM files),
             dc AS (SELECT DISTINCT name, file_id FROM symbols
                    WHERE kind != 'import' {def_filter}),
             dn AS (SELECT name, COUNT(*) AS k FROM dc GROUP BY name HAVING k <= {MAX_DEFINERS}),
             rc AS (SELECT r.file_id, r.name, SUM(CASE WHEN r.receiver IN ('', 'self', 'this',
                           'cls') OR substr(r.receiver, 1, 1) BETWEEN 'A' AND 'Z' THEN 1.0
                           ELSE 0.1 END) AS n
                    FROM dn CROSS JOIN refs r ON r.name = dn.name
                    WHERE r.kind != 'attribute' GROUP BY r.file_id, r.name)
        INSERT INTO edges(src, dst, name, weight)
        SELECT rc.file_id, dc.file_id, rc.name,
               sqrt(rc.n) / dn.k * (CASE WHEN substr(rc.name, 1, 1) = '_' THEN 0.1 ELSE 1.0 END)
        FROM rc CROSS JOIN dn ON dn.name = rc.name CROSS JOIN dc ON dc.name = rc.name
        CROSS JOIN fam a ON a.id = rc.file_id CROSS JOIN fam b ON b.id = dc.file_id
        WHERE rc.file_id != dc.file_id AND a.family = b.family"""


def update_edges(db: sqlite3.Connection, names: set[str] | None) -> None:
    """Recompute the edges of `names` (every edge when None); inside the caller's transaction."""
    if names is None or len(names) > FULL_REBUILD_NAMES:
        db.execute("DELETE FROM edges")
        db.execute(_edges_sql(False))
    else:
        db.execute("CREATE TEMP TABLE IF NOT EXISTS dirty_names(name TEXT PRIMARY KEY)")
        db.execute("DELETE FROM temp.dirty_names")
        db.executemany("INSERT OR IGNORE INTO temp.dirty_names VALUES (?)", [(n,) for n in names])
        db.execute("DELETE FROM edges WHERE name IN (SELECT name FROM temp.dirty_names)")
        db.execute(_edges_sql(True))
    db.execute("INSERT OR REPLACE INTO meta VALUES ('ranks_dirty', '1')")


def pagerank(
    nodes: list[int], pairs: list[tuple[int, int, float]], damping: float = 0.85, rounds: int = 40
) -> dict[int, float]:
    """Plain power iteration on (src, dst, weight); dangling mass spreads evenly."""
    if not nodes:
        return {}
    out_weight: dict[int, float] = defaultdict(float)
    for src, _, w in pairs:
        out_weight[src] += w
    links = [(src, dst, w / out_weight[src]) for src, dst, w in pairs]
    base = 1.0 / len(nodes)
    rank = dict.fromkeys(nodes, base)
    dangling_nodes = [n for n in nodes if n not in out_weight]
    for _ in range(rounds):
        spread = (1 - damping) * base + damping * base * sum(rank[n] for n in dangling_nodes)
        nxt = dict.fromkeys(nodes, spread)
        for src, dst, w in links:
            nxt[dst] += damping * rank[src] * w
        delta = sum(abs(nxt[n] - rank[n]) for n in nodes)
        rank = nxt
        if delta < 1e-7:
            break
    return rank


def ensure_ranks(db: sqlite3.Connection) -> None:
    """Recompute ranks and flows when edges changed since; the caller holds the index lock."""
    row = db.execute("SELECT value FROM meta WHERE key='ranks_dirty'").fetchone()
    if row is None or row[0] != "1":
        return
    nodes = [fid for (fid,) in db.execute("SELECT id FROM files ORDER BY id")]
    pairs = db.execute("SELECT src, dst, SUM(weight) FROM edges GROUP BY src, dst").fetchall()
    rank = pagerank(nodes, pairs)
    out_weight: dict[int, float] = defaultdict(float)
    for src, _, w in pairs:
        out_weight[src] += w
    flow: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for src, dst, name, w in db.execute("SELECT src, dst, name, weight FROM edges"):
        flow[dst][name] += rank.get(src, 0.0) * w / out_weight[src]
    rows = [
        (fid, name, value)
        for fid, names in flow.items()
        for name, value in sorted(names.items(), key=lambda kv: (-kv[1], kv[0]))[
            : SYMBOLS_PER_FILE * 2
        ]
    ]
    db.execute("BEGIN IMMEDIATE")
    try:
        db.execute("DELETE FROM ranks")
        db.execute("DELETE FROM flows")
        db.executemany("INSERT INTO ranks VALUES (?, ?)", rank.items())
        db.executemany("INSERT INTO flows VALUES (?, ?, ?)", rows)
        db.execute("INSERT OR REPLACE INTO meta VALUES ('ranks_dirty', '0')")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def mentioned_names(text: str) -> set[str]:
    return set(_IDENT.findall(text or ""))


def _mentions_file(path: str, hint: str, words: set[str]) -> bool:
    name = path.rsplit("/", 1)[-1].lower()
    stem = name.rsplit(".", 1)[0]
    return path.lower() in hint or name in hint or (len(stem) > 3 and stem in words)


def rank_files_and_symbols(
    db: sqlite3.Connection, task_hint: str = ""
) -> tuple[list[tuple[int, float]], dict[int, list[tuple[str, float]]]]:
    """Files by rank (those the hint mentions first) and, per file, its most used names."""
    ensure_ranks(db)
    mentioned = mentioned_names(task_hint)
    hint = (task_hint or "").lower()
    words = {w.lower() for w in mentioned}
    paths = dict(db.execute("SELECT id, path FROM files"))
    boosted = {fid for fid, path in paths.items() if hint and _mentions_file(path, hint, words)}
    if mentioned:
        marks = ",".join("?" * len(mentioned))
        boosted |= {
            fid
            for (fid,) in db.execute(
                f"SELECT DISTINCT dst FROM edges WHERE name IN ({marks})", sorted(mentioned)
            )
        }
    rank = dict(db.execute("SELECT file_id, rank FROM ranks"))
    files = sorted(
        ((fid, rank.get(fid, 0.0)) for fid in paths),
        key=lambda kv: (kv[0] not in boosted, -round(kv[1], 12), paths[kv[0]]),
    )
    symbols: dict[int, list[tuple[str, float]]] = defaultdict(list)
    for fid, name, value in db.execute("SELECT file_id, name, flow FROM flows"):
        symbols[fid].append((name, value * 10 if name in mentioned else value))
    for names in symbols.values():
        names.sort(key=lambda kv: (-round(kv[1], 12), kv[0]))
    return files, symbols
