"""PageRank over the file reference graph, personalized toward what the task mentions."""

from __future__ import annotations

import math
import re
import sqlite3
from collections import defaultdict

from core.codemap.langs import FAMILIES

MAX_DEFINERS = 5  # a name defined in more files than this says little about any of them
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")

Edge = tuple[int, int, str, float]  # (from file, to file, name, weight)
_FAMILY_SQL = (
    "CASE lang "
    + " ".join(f"WHEN '{lang}' THEN '{family}'" for lang, family in FAMILIES.items())
    + " ELSE lang END"
)


def edges(db: sqlite3.Connection) -> list[Edge]:
    """Referencing file → defining file, one edge per name, weighted by use and specificity.

    Calls through an unknown lower-case receiver (`x.lower()`) count a tenth: they often mean
    some other type's method of the same name.
    """
    rows = db.execute(f"""
        WITH fam AS (SELECT id, {_FAMILY_SQL} AS family FROM files),
             rc AS (SELECT file_id, name, SUM(CASE WHEN receiver IN ('', 'self', 'this', 'cls')
                           OR substr(receiver, 1, 1) BETWEEN 'A' AND 'Z' THEN 1.0 ELSE 0.1 END)
                           AS n FROM refs GROUP BY file_id, name),
             dc AS (SELECT DISTINCT name, file_id FROM symbols WHERE kind != 'import'),
             dn AS (SELECT name, COUNT(*) AS k FROM dc GROUP BY name HAVING k <= {MAX_DEFINERS})
        SELECT rc.file_id, dc.file_id, rc.name, rc.n, dn.k
        FROM rc JOIN dn ON dn.name = rc.name JOIN dc ON dc.name = rc.name
        JOIN fam a ON a.id = rc.file_id JOIN fam b ON b.id = dc.file_id
        WHERE rc.file_id != dc.file_id AND a.family = b.family""")
    out: list[Edge] = []
    for src, dst, name, count, definers in rows:
        weight = math.sqrt(count) / definers
        out.append((src, dst, name, weight * 0.1 if name.startswith("_") else weight))
    return out


def pagerank(
    nodes: list[int],
    graph: list[Edge],
    personal: dict[int, float],
    damping: float = 0.85,
    rounds: int = 40,
) -> dict[int, float]:
    """Plain power iteration; dangling mass returns through the personalization vector."""
    if not nodes:
        return {}
    total = sum(personal.values())
    base = (
        {n: personal.get(n, 0.0) / total for n in nodes}
        if total
        else {n: 1.0 / len(nodes) for n in nodes}
    )
    out_weight: dict[int, float] = defaultdict(float)
    for src, _, _, w in graph:
        out_weight[src] += w
    rank = dict(base)
    for _ in range(rounds):
        nxt = {n: (1 - damping) * base[n] for n in nodes}
        dangling = sum(rank[n] for n in nodes if out_weight.get(n, 0.0) == 0.0)
        for n in nodes:
            nxt[n] += damping * dangling * base[n]
        for src, dst, _, w in graph:
            nxt[dst] += damping * rank[src] * w / out_weight[src]
        delta = sum(abs(nxt[n] - rank[n]) for n in nodes)
        rank = nxt
        if delta < 1e-9:
            break
    return rank


def mentioned_names(text: str) -> set[str]:
    return set(_IDENT.findall(text or ""))


def _mentions_file(path: str, hint: str, words: set[str]) -> bool:
    name = path.rsplit("/", 1)[-1].lower()
    stem = name.rsplit(".", 1)[0]
    return path.lower() in hint or name in hint or (len(stem) > 3 and stem in words)


def rank_files_and_symbols(
    db: sqlite3.Connection,
    task_hint: str = "",
    graph: list[Edge] | None = None,
) -> tuple[list[tuple[int, float]], dict[int, list[tuple[str, float]]]]:
    """Files by rank (best first) and, per file, its names by how much rank flows to them."""
    mentioned = mentioned_names(task_hint)
    paths = dict(db.execute("SELECT id, path FROM files"))
    graph = [
        (s, d, n, w * 10 if n in mentioned else w)
        for s, d, n, w in (edges(db) if graph is None else graph)
    ]
    personal: dict[int, float] = {}
    hint = (task_hint or "").lower()
    words = {w.lower() for w in mentioned}
    for fid, path in paths.items():
        if hint and _mentions_file(path, hint, words):
            personal[fid] = personal.get(fid, 0.0) + 10.0
    for _src, dst, name, _ in graph:
        if name in mentioned:
            personal[dst] = personal.get(dst, 0.0) + 1.0
    if personal:
        for fid in paths:
            personal[fid] = personal.get(fid, 0.0) + 0.01
    rank = pagerank(sorted(paths), graph, personal)
    out_weight: dict[int, float] = defaultdict(float)
    for src, _, _, w in graph:
        out_weight[src] += w
    flow: dict[int, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for src, dst, name, w in graph:
        flow[dst][name] += rank[src] * w / out_weight[src]
    boosted = {fid for fid, weight in personal.items() if weight >= 1.0}
    files = sorted(
        rank.items(), key=lambda kv: (kv[0] not in boosted, -round(kv[1], 12), paths[kv[0]])
    )
    symbols = {
        fid: sorted(names.items(), key=lambda kv: (-round(kv[1], 12), kv[0]))
        for fid, names in flow.items()
    }
    return files, symbols
