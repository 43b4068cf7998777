"""The repository overview for the system prompt: ranked files and symbols within a budget."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

from core.codemap.rank import rank_files_and_symbols
from my_agent.tokens import estimate_tokens

if TYPE_CHECKING:
    pass


HEADER = (
    "Most-used files and symbols (line numbers; ask the code_map tool for definition, "
    "references, impact or outline instead of reading whole files):"
)


SYMBOLS_PER_FILE = 6


def render_overview(
    db: sqlite3.Connection,
    task_hint: str = "",
    budget_tokens: int = 1000,
    graph: list | None = None,
) -> str:
    """Deterministic for the same index and hint; stops before the token budget is exceeded."""
    files, flows = rank_files_and_symbols(db, task_hint, graph)
    if not files:
        return ""
    paths = dict(db.execute("SELECT id, path FROM files"))
    lines = [HEADER]
    used = estimate_tokens(HEADER)
    for fid, _ in files:
        block = [paths[fid]] + _symbol_lines(db, fid, flows.get(fid, []))
        cost = estimate_tokens("\n".join(block))
        if used + cost > budget_tokens:
            if used + estimate_tokens(block[0]) <= budget_tokens:
                lines.append(block[0])
                used += estimate_tokens(block[0])
            continue
        lines += block
        used += cost
    return "\n".join(lines) if len(lines) > 1 else ""


def _symbol_lines(db: sqlite3.Connection, fid: int, flow: list[tuple[str, float]]) -> list[str]:
    names = [n for n, _ in flow[:SYMBOLS_PER_FILE]]
    if not names:  # nothing points here: show its top-level public definitions
        names = [
            n
            for (n,) in db.execute(
                "SELECT name FROM symbols WHERE file_id=? AND kind != 'import' AND scope='' "
                "AND exported=1 ORDER BY line LIMIT 3",
                (fid,),
            )
        ]
    rows = []
    for name in names:
        row = db.execute(
            "SELECT line, signature, scope FROM symbols WHERE file_id=? AND name=? "
            "AND kind != 'import' ORDER BY line LIMIT 1",
            (fid, name),
        ).fetchone()
        if row:
            line, sig, scope = row
            if scope and f"{name}(" in sig:
                sig = sig.replace(f"{name}(", f"{scope}.{name}(", 1)
            rows.append((line, f"  {line}: {sig}"))
    return list(dict.fromkeys(text for _, text in sorted(rows)))
