"""Every line a rename must touch: definitions, imports and re-exports naming it, call sites."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from core.codemap.fileview import FAMILIES, ViewCache
from core.codemap.langs import language_family
from core.codemap.query import Definition, references, split_target
from core.codemap.resolve import Project


@dataclass(frozen=True)
class Edit:
    path: str
    line: int
    kind: str  # definition | import | export | call | new | inherit | type | macro
    symbol: str  # enclosing function, or the definition's qualified name
    confidence: float


def rename_sites(
    db: sqlite3.Connection, target: str, cache: ViewCache | None = None
) -> tuple[list[Definition], list[Edit]]:
    """The lines to change to rename `target`, one per line, in path order."""
    project = Project(db, cache)
    defs, sites = references(db, target, project=project)
    wanted = {(d.path, d.line) for d in defs}
    edits = {(d.path, d.line): Edit(d.path, d.line, "definition", d.qualified, 1.0) for d in defs}
    _, _, name = split_target(target)
    for path, line, kind in _naming_lines(db, name):
        if (path, line) in edits or language_family(path) not in FAMILIES:
            continue
        value = (
            project.imported(project.view(path), kind[1])
            if kind[0] == "import"
            else project.export(path, name)
        )
        if value is not None and (value[1], project.line_of(value)) in wanted:
            edits[(path, line)] = Edit(path, line, kind[0], "", 0.95)
    for s in sites:
        edits.setdefault((s.path, s.line), Edit(s.path, s.line, s.kind, s.caller, s.confidence))
    return defs, sorted(edits.values(), key=lambda e: (e.path, e.line))


def _naming_lines(db: sqlite3.Connection, name: str) -> list[tuple[str, int, tuple[str, str]]]:
    """Imports that bind `name` (or an alias of it), `__all__` entries and `export { name }`."""
    rows = db.execute(
        "SELECT f.path, s.line, s.name FROM symbols s JOIN files f ON f.id = s.file_id "
        "WHERE s.kind = 'import' AND (s.orig = ? OR (s.name = ? AND s.orig = ''))",
        (name, name),
    ).fetchall()
    out = [(path, line, ("import", local)) for path, line, local in rows]
    exports = db.execute(
        "SELECT f.path, b.line FROM binds b JOIN files f ON f.id = b.file_id "
        "WHERE b.kind = 'all' AND b.name = ? UNION SELECT f.path, s.line FROM symbols s "
        "JOIN files f ON f.id = s.file_id WHERE s.kind = 'export' AND s.name = ?",
        (name, name),
    ).fetchall()
    return out + [(path, line, ("export", name)) for path, line in exports]
