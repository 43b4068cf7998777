"""What depends on a symbol or a file: every kind of reference followed (calls, values,
attributes, annotations, bases, decorators, imports), breadth first, within a depth, a size
and a time limit; what was reached only through a guessed site is marked, and what the limits
left out is counted."""

from __future__ import annotations

import sqlite3
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from core.codemap.deadline import Deadline, OutOfTime
from core.codemap.fileview import ViewCache
from core.codemap.imports import file_matches
from core.codemap.query import Definition, Site, references
from core.codemap.resolve import Project

UNCERTAIN = 0.5  # a site below this confidence was matched by name only
SECONDS = 1.0  # an impact question answers within this by default
ASK, KEEP = 0.7, 0.97  # parts of it for asking, and for keeping what the answers hold: sorting
# out the sites found (one per line, surest first, kept) costs up to a third of finding them
_T = TypeVar("_T")


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
    clock: Callable[[], float] = time.monotonic,
) -> Impact:
    """What depends on a symbol or a file, breadth first, transitively, bounded. The time
    limit holds wherever the time goes (SQL, resolution, the walk): past it, what was reached
    is the answer and `left_out` says what was not asked."""
    # ASK for asking, the rest for sorting out what was found (`keep`: what is found by then)
    deadline = Deadline(ASK * seconds if seconds is not None else None, clock)
    keep = Deadline(KEEP * seconds if seconds is not None else None, clock)
    found = Impact(target, max_depth=max_depth)
    with deadline.watching(db):
        is_file = _asked(
            deadline, lambda: db.execute("SELECT 1 FROM files WHERE path = ?", (target,)).fetchone()
        )
        if deadline.passed:
            found.stopped, found.unexpanded = "time", 1
            return found
        walk = _file_impact if is_file else _symbol_impact
        walk(db, found, max_depth, limit, (deadline, keep), cache)
    return found


def _asked(deadline: Deadline, ask: Callable[..., _T], *args: object) -> _T | None:
    """`ask(*args)`, or None when the time limit passed before it answered."""
    try:
        return ask(*args)
    except (OutOfTime, sqlite3.OperationalError):
        if not deadline.passed:  # an SQL error of its own, not the time limit
            raise
        return None


def _symbol_impact(db, found: Impact, max_depth: int, limit: int, deadlines, cache) -> None:
    """Users of the target, their users, …: each reached first through a confident site when
    one exists (those are asked first), else marked uncertain."""
    deadline, keep = deadlines
    project = Project(db, cache, deadline)
    kept: dict[str, int] = {found.target: -1}  # key → index in found.dependents
    queue: deque[tuple[str, int, bool]] = deque([(found.target, 0, False)])
    later: deque[tuple[str, int, bool]] = deque()  # the uncertain ones, after the sure ones
    while queue or later:
        current, depth, unsure = queue.popleft() if queue else later.popleft()
        if depth >= max_depth:
            found.unexpanded += 1
            continue
        answer = _asked(deadline, _users, db, project, current, deadline)
        if deadline.passed:  # what this answer holds is kept; nothing more is asked
            found.stopped = "time"
            found.unexpanded += 1  # the one being asked: its answer is cut short
        answer = answer or []
        for n, site in enumerate(answer):
            if n % 64 == 0 and keep.late():  # found, but no time left to keep them
                found.stopped = "time"
                found.unvisited += len({_key(s) for s in answer[n:]} - kept.keys())
                break
            key = _key(site)
            guess = unsure or site.confidence < UNCERTAIN
            if key in kept:
                where = kept[key]
                if where >= 0 and found.dependents[where].uncertain and not guess:
                    found.dependents[where] = _dependent(depth, site, current, False)
                continue
            if len(found.dependents) >= limit:
                found.unvisited += 1
                found.stopped = found.stopped or "limit"
                continue
            kept[key] = len(found.dependents)
            found.dependents.append(_dependent(depth, site, current, guess))
            if site.caller:
                (later if guess else queue).append((key, depth + 1, guess))
        if found.stopped:  # full, or out of time: what is queued is not asked about
            found.unexpanded += len(queue) + len(later)
            return


def _users(db, project: Project, current: str, deadline: Deadline) -> list[Site]:
    """The sites that use `current`, surest first; an import of a file already using it left
    out (the file's users are its dependents: the import adds nothing)."""
    deadline.check()
    wanted, sites = references(db, current, project=project, deadline=deadline, aliases=True)
    sites += _asked(deadline, _stub_twins, db, wanted, deadline) or []
    users = {s.path for s in sites if s.kind != "import"}
    ordered = sorted(sites, key=lambda s: -s.confidence)
    return [s for s in ordered if s.kind != "import" or s.path not in users]


def _key(site: Site) -> str:
    return f"{site.path}:{site.caller}" if site.caller else site.path


def _stub_twins(db: sqlite3.Connection, wanted: list[Definition], deadline: Deadline) -> list[Site]:
    """A definition's twin in the stub beside it (`m.pyi` for `m.py`, and back): it changes
    when the definition does."""
    out = []
    for d in wanted:
        if deadline.late():
            break
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


def _file_impact(db, found: Impact, max_depth: int, limit: int, deadlines, cache) -> None:
    deadline = deadlines[0]
    seen = {found.target}
    queue = deque([(found.target, 0)])
    importers = _asked(
        deadline,
        lambda: db.execute(
            "SELECT DISTINCT f.path, s.module, s.orig, s.line FROM symbols s "
            "JOIN files f ON f.id = s.file_id WHERE s.kind = 'import'"
        ).fetchall(),
    )
    project = Project(db, cache, deadline)
    while queue and not deadline.passed:
        current, depth = queue.popleft()
        if depth >= max_depth:
            found.unexpanded += 1
            continue
        users = _importers_of(importers or [], current, deadline)
        if not deadline.passed:
            users += _asked(deadline, _callers_of_file, db, current, project, deadline) or []
        if deadline.passed:
            found.unexpanded += 1  # the one being asked: its answer is cut short
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
    if deadline.passed:
        found.stopped = "time"
        found.unexpanded += len(queue)


def _importers_of(importers: list, current: str, deadline: Deadline) -> list[tuple[str, int]]:
    """The import lines that name the file `current`."""
    out = []
    for n, (path, key, orig, line) in enumerate(importers):
        if n % 512 == 0 and deadline.late():
            break
        if file_matches(key, current) or (orig and file_matches(f"{key}/{orig}", current)):
            out.append((path, line))
    return out


def _callers_of_file(
    db, path: str, project: Project, deadline: Deadline, max_symbols: int = 40
) -> list[tuple[str, int]]:
    """Files whose references resolve to this file's definitions (same-package languages);
    what was found when the time limit passed."""
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
        if deadline.late():
            break
        _, sites = references(
            db, f"{path}:{name}", UNCERTAIN, project=project, deadline=deadline, aliases=True
        )
        users += [(s.path, s.line) for s in sites if s.path != path]
    return users
