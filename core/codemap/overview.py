"""The repository overview for the system prompt: ranked files and symbols within a budget."""

from __future__ import annotations

import sqlite3

from core.codemap.rank import SYMBOLS_PER_FILE, rank_files_and_symbols
from my_agent.tokens import estimate_tokens

HEADER = (
    "Most-used files and symbols (line numbers; ask the code_map tool for definition, "
    "references, impact or outline instead of reading whole files):"
)


MIN_LINE_TOKENS = 3


def render_overview(
    db: sqlite3.Connection,
    task_hint: str = "",
    budget_tokens: int = 1000,
    graph: object = None,
) -> str:
    """Deterministic for the same index and hint; stops before the token budget is exceeded.
    The ranks come from the index (`graph` is not used any more; kept for the caller)."""
    files, flows = rank_files_and_symbols(db, task_hint)
    if not files:
        return ""
    paths = dict(db.execute("SELECT id, path FROM files"))
    lines = [HEADER]
    used = estimate_tokens(HEADER)
    for fid, _ in files:
        if budget_tokens - used < MIN_LINE_TOKENS:
            break  # nothing more fits: no need to look at the rest
        head = estimate_tokens(paths[fid])
        if used + head > budget_tokens:
            continue
        block = [paths[fid]] + _symbol_lines(db, fid, flows.get(fid, []))
        cost = estimate_tokens("\n".join(block))
        if used + cost > budget_tokens:
            lines.append(block[0])
            used += head
            continue
        lines += block
        used += cost
    return "\n".join(lines) if len(lines) > 1 else ""


def _symbol_lines(db: sqlite3.Connection, fid: int, flow: list[tuple[str, float]]) -> list[str]:
    """The file's most used names (or its first public ones), one query for the file."""
    rows = db.execute(
        "SELECT name, line, signature, scope, exported FROM symbols "
        "WHERE file_id=? AND kind != 'import' ORDER BY line",
        (fid,),
    ).fetchall()
    first: dict[str, tuple[int, str, str]] = {}
    for name, line, sig, scope, _ in rows:
        first.setdefault(name, (line, sig or "", scope or ""))
    names = [n for n, _ in flow if n in first][:SYMBOLS_PER_FILE]
    if not names:  # nothing points here: show its top-level public definitions
        names = [name for name, _, _, scope, exported in rows if exported and not scope][:3]
    shown = []
    for name in names:
        line, sig, scope = first[name]
        if scope and f"{name}(" in sig:
            sig = sig.replace(f"{name}(", f"{scope}.{name}(", 1)
        shown.append((line, f"  {line}: {sig}"))
    return list(dict.fromkeys(text for _, text in sorted(shown)))
