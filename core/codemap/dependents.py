"""What depends on a symbol or a file: every kind of reference followed (calls, values,
attributes, annotations, bases, decorators, imports), breadth first, within a depth, a size
and a time limit; what was reached only through a guessed site is marked, and what the limits
left out is counted."""

from __future__ import annotations

import sqlite3
import time
from collections import deque
from dataclasses import dataclass, field

from core.codemap.fileview import ViewCache
from core.codemap.imports import file_matches
from core.codemap.query import Definition, Site, references
from core.codemap.resolve import Project

UNCERTAIN = 0.5  # a site below this confidence was matched by name only
SECONDS = 1.0  # an impact question answers within this by default


@dataclass(frozen=True)
class Dependent:
    depth: int
    path: str
    symbol: str  # "" when the whole file depends
    line: int
    via: str  # what it uses
    confidence: float = 0.95
    kind: str = "call"  # the kind of the site it was reached through
    uncertain: bool = False  # reached through a guessed site, here or on the way


@dataclass
class Impact:
    target: str
    dependents: list[Dependent] = field(default_factory=list)
    unexpanded: int = 0  # dependents at the depth limit whose own dependents were not asked
    unvisited: int = 0  # dependents found but not kept (the size limit)
    stopped: str = ""  # "limit" | "time" when a limit cut the walk short
    max_depth: int = 0

    @property
    def left_out(self) -> dict[str, object]:
        return {
            "beyond_depth": self.unexpanded,
            "over_limit": self.unvisited,
            "stopped": self.stopped,
            "max_depth": self.max_depth,
        }


def impact(
    db: sqlite3.Connection,
    target: str,
    max_depth: int = 3,
    limit: int = 60,
    seconds: float | None = SECONDS,
    cache: ViewCache | None = None,
) -> Impact:
    """What depends on a symbol or a file, breadth first, transitively, bounded."""
    # 10% of the budget is left for sorting out what was found
    deadline = time.monotonic() + 0.9 * seconds if seconds is not None else None
    is_file = db.execute("SELECT 1 FROM files WHERE path = ?", (target,)).fetchone() is not None
    walk = _file_impact if is_file else _symbol_impact
    found = Impact(target, max_depth=max_depth)
    walk(db, found, max_depth, limit, deadline, cache)
    return found


def _late(deadline: float | None) -> bool:
    return deadline is not None and time.monotonic() >= deadline


def _symbol_impact(db, found: Impact, max_depth: int, limit: int, deadline, cache) -> None:
    """Users of the target, their users, …: each reached first through a confident site when
    one exists (those are asked first), else marked uncertain."""
    project = Project(db, cache)
    kept: dict[str, int] = {found.target: -1}  # key → index in found.dependents
    queue: deque[tuple[str, int, bool]] = deque([(found.target, 0, False)])
    later: deque[tuple[str, int, bool]] = deque()  # the uncertain ones, after the sure ones
    while queue or later:
        if _late(deadline):
            found.stopped = "time"
            found.unexpanded += len(queue) + len(later)
            return
        current, depth, unsure = queue.popleft() if queue else later.popleft()
        if depth >= max_depth:
            found.unexpanded += 1
            continue
        wanted, sites = references(db, current, project=project, deadline=deadline, aliases=True)
        sites += _stub_twins(db, wanted)
        if _late(deadline):  # what this answer holds is kept; nothing more is asked
            found.stopped = "time"
        users = {s.path for s in sites if s.kind != "import"}
        for site in sorted(sites, key=lambda s: -s.confidence):
            if site.kind == "import" and site.path in users:
                continue  # the file's users are its dependents: the import adds nothing
            key = f"{site.path}:{site.caller}" if site.caller else site.path
            guess = unsure or site.confidence < UNCERTAIN
            if key in kept:
                where = kept[key]
                if where >= 0 and found.dependents[where].uncertain and not guess:
                    found.dependents[where] = _dependent(depth, site, current, False)
                continue
            if len(found.dependents) >= limit:
                found.unvisited += 1
                found.stopped = "limit"
                continue
            kept[key] = len(found.dependents)
            found.dependents.append(_dependent(depth, site, current, guess))
            if site.caller:
                (later if guess else queue).append((key, depth + 1, guess))
        if found.stopped:  # full, or out of time: what is queued is not asked about
            found.unexpanded += len(queue) + len(later)
            return


def _stub_twins(db: sqlite3.Connection, wanted: list[Definition]) -> list[Site]:
    """A definition's twin in the stub beside it (`m.pyi` for `m.py`, and back): it changes
    when the definition does."""
    out = []
    for d in wanted:
        stem, dot, ext = d.path.rpartition(".")
        twin = {"py": f"{stem}.pyi", "pyi": f"{stem}.py"}.get(ext) if dot else None
        rows = (
            db.execute(
                "SELECT s.line, s.kind FROM symbols s JOIN files f ON f.id = s.file_id "
                "WHERE f.path = ? AND s.name = ? AND s.scope = ? AND s.kind != 'import'",
                (twin, d.name, d.scope),
            ).fetchall()
            if twin
            else []
        )
        for line, kind in rows:
            caller = d.qualified if kind in ("function", "method") else d.scope
            out.append(Site(twin, line, d.name, "stub", caller, "", 0.95, "stub"))
    return out


def _dependent(depth: int, site, current: str, guess: bool) -> Dependent:
    return Dependent(
        depth + 1, site.path, site.caller, site.line, current, site.confidence, site.kind, guess
    )


def _file_impact(db, found: Impact, max_depth: int, limit: int, deadline, cache) -> None:
    seen = {found.target}
    queue = deque([(found.target, 0)])
    importers = db.execute(
        "SELECT DISTINCT f.path, s.module, s.orig, s.line FROM symbols s "
        "JOIN files f ON f.id = s.file_id WHERE s.kind = 'import'"
    ).fetchall()
    while queue:
        if _late(deadline):
            found.stopped = "time"
            found.unexpanded += len(queue)
            return
        current, depth = queue.popleft()
        if depth >= max_depth:
            found.unexpanded += 1
            continue
        users = [
            (path, line)
            for path, key, orig, line in importers
            if file_matches(key, current) or (orig and file_matches(f"{key}/{orig}", current))
        ]
        users += _callers_of_file(db, current, Project(db, cache))
        for path, line in users:
            if path in seen:
                continue
            seen.add(path)
            if len(found.dependents) >= limit:
                found.unvisited += 1
                found.stopped = "limit"
                continue
            found.dependents.append(Dependent(depth + 1, path, "", line, current, kind="import"))
            queue.append((path, depth + 1))


def _callers_of_file(
    db, path: str, project: Project, max_symbols: int = 40
) -> list[tuple[str, int]]:
    """Files whose references resolve to this file's definitions (same-package languages)."""
    names = [
        n
        for (n,) in db.execute(
            "SELECT DISTINCT s.name FROM symbols s JOIN files f ON f.id = s.file_id "
            "WHERE f.path = ? AND s.kind != 'import' LIMIT ?",
            (path, max_symbols),
        )
    ]
    users: list[tuple[str, int]] = []
    for name in names:
        _, sites = references(db, f"{path}:{name}", UNCERTAIN, project=project, aliases=True)
        users += [(s.path, s.line) for s in sites if s.path != path]
    return users
