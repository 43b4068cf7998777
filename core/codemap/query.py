"""Questions to the index: definitions, references (resolved, with confidence), impact, outline."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from core.codemap.byname import Definition, Resolver
from core.codemap.deadline import Deadline, OutOfTime
from core.codemap.fileview import BUILTIN_METHODS, CLASSY, FAMILIES, ViewCache
from core.codemap.langs import language_family
from core.codemap.resolve import Project
from core.codemap.tsfamily import NONE, family, owner

CALL_KINDS = frozenset({"call", "new", "inherit", "macro", "decorator"})
KIND_NAMES = {  # the index's kinds as answers name them
    "call": "call",
    "new": "call",
    "macro": "call",
    "decorator": "decorator",
    "inherit": "base",
    "type": "annotation",
    "value": "value",
    "attribute": "property",
    "import": "import",
    "override": "override",
    "export": "export",
    "stub": "stub",  # impact: a definition's twin in the .pyi beside it
}
GUESSES = frozenset({"unique name", "name match"})  # reasons that are not resolution
_VALUE_KINDS = frozenset({"function", "method", "variable", "constant"})
_JS = "javascript"


@dataclass(frozen=True)
class Site:
    path: str
    line: int
    name: str
    kind: str  # call | new | inherit | decorator | type | value | attribute | import | macro
    caller: str  # enclosing function or method; "" at module level
    receiver: str
    confidence: float
    reason: str  # import | same file | unique name | name match


_DEF_COLS = "f.path, s.name, s.kind, s.line, s.end_line, s.scope, s.signature, s.exported"


def _defs(rows) -> list[Definition]:
    return [
        Definition(p, n, k, ln, e, sc or "", sig or "", bool(x))
        for p, n, k, ln, e, sc, sig, x in rows
    ]


def split_target(target: str) -> tuple[str, str, str]:
    """'path.py:Cls.meth' → (path, scope, name); 'Cls.meth' → ('', 'Cls', 'meth')."""
    path = ""
    if ":" in target:
        path, target = target.rsplit(":", 1)
    target = target.replace("::", ".").strip().rstrip("()")
    scope, _, name = target.rpartition(".")
    return path.strip(), scope, name


def definitions(db: sqlite3.Connection, target: str) -> list[Definition]:
    """Definitions named like `target` (name, Scope.name or path:name), imports excluded."""
    path, scope, name = split_target(target)
    return _narrowed(_named(db, name), path, scope)


def _named(db: sqlite3.Connection, name: str) -> list[Definition]:
    rows = db.execute(
        f"SELECT {_DEF_COLS} FROM symbols s JOIN files f ON f.id = s.file_id "
        "WHERE s.name = ? AND s.kind != 'import' ORDER BY f.path, s.line",
        (name,),
    )
    return _defs(rows)


def _narrowed(found: list[Definition], path: str, scope: str) -> list[Definition]:
    """Those of a name's definitions that `path:Scope.name` names."""
    if scope:
        found = [d for d in found if d.scope == scope or d.scope.endswith("." + scope)]
    if path:
        found = [d for d in found if d.path == path or d.path.endswith("/" + path)]
        if not scope and any(not d.scope for d in found):  # `m.py:evolve`: the module's own,
            found = [d for d in found if not d.scope]  # not a method of the same name there
    return found


def references(
    db: sqlite3.Connection,
    target: str,
    min_confidence: float = 0.0,
    project: Project | None = None,
    cache: ViewCache | None = None,
    deadline: Deadline | None = None,
    aliases: bool = False,
) -> tuple[list[Definition], list[Site]]:
    """Sites that reference `target`, best first; sites resolved to another definition dropped.
    Past `deadline` (checked before each row, each file view loaded and during SQL
    statements) the sites found so far are the answer; the caller sees `deadline.passed`.
    In Python a use of another name for it (`from m import f as g; g()`, `g = f; g()`) names
    g, not f, as jedi and pyright count (and a rename leaves it alone): listed only with
    `aliases`, for impact (the call runs f)."""
    path, scope, name = split_target(target)
    resolver = Resolver(db, _named(db, name))
    project = project or Project(db, cache, deadline)
    wanted = _narrowed(resolver.all_defs, path, scope)
    wanted_keys = frozenset((d.path, d.line) for d in wanted)
    twins = _stub_twins(resolver.all_defs, wanted) if wanted_keys else frozenset()
    wanted_keys |= twins  # `m.pyi`'s A is m.py's A: `class B(A)` in the stub uses it (jedi)
    classes = frozenset((d.path, d.line) for d in resolver.all_defs if d.kind in CLASSY)
    names = [name] + [
        alias
        for (alias,) in db.execute(
            "SELECT name FROM symbols WHERE orig=? AND kind='import' AND name!=? "
            "UNION SELECT name FROM binds WHERE alias=? AND name!=?",
            (name, name, name, name),
        )
    ]
    related = family(db, project, resolver.all_defs, wanted) if wanted_keys else NONE
    overrides = [
        Site(p, line, name, "override", "", "", 0.9, "override")
        for p, line in related.declared
        if (p, line) not in wanted_keys
    ]
    wanted_keys |= {(s.path, s.line) for s in overrides}
    rules = _Rules(project, resolver, name, wanted_keys, classes, min_confidence)
    rules.owners, rules.builtins = related.owners, related.builtins
    rules.aliases = aliases
    sites: list[Site] = []
    try:
        for local in names:
            rows = db.execute(
                "SELECT r.file_id, f.path, r.line, r.kind, r.scope, r.receiver "
                "FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ?",
                (local,),
            )
            for row in rows:
                if deadline is not None:
                    deadline.check()
                site = rules.site(local, row)
                if site is not None:
                    sites.append(site)
        if wanted_keys:
            for local in names:  # TypeScript: an alias's imports too (`export { a as b }`)
                _import_sites(db, project, local, wanted_keys, sites, local != name)
    except (OutOfTime, sqlite3.OperationalError):  # a statement the time limit interrupted
        if deadline is None or not deadline.passed:
            raise
        # what was found stands
    return wanted, _one_per_line(sites + overrides)


class _Rules:
    """Whether one reference row is a site of the wanted definitions, and how sure."""

    def __init__(self, project, resolver, name, wanted_keys, classes, min_confidence) -> None:
        self.project, self.resolver, self.name = project, resolver, name
        self.wanted_keys, self.classes, self.min_confidence = wanted_keys, classes, min_confidence
        self.aliases = False
        self.values = frozenset(
            (d.path, d.line) for d in resolver.all_defs if d.kind in _VALUE_KINDS
        )
        self.owners: frozenset = frozenset()  # a TypeScript method family's (tsfamily.py)
        self.builtins: frozenset = frozenset()  # the builtin containers it overrides

    def site(self, local: str, row: tuple) -> Site | None:
        fid, fpath, line, kind, caller, recv = row
        if local != self.name and not self.aliases and fpath.endswith((".py", ".pyi")):
            return None  # (tsserver counts a TypeScript alias's uses: they stay)
        if language_family(fpath) in FAMILIES:
            found = _followed(
                self.project, self.resolver, (fpath, line), local, recv or "", caller or ""
            )
        else:
            found = self.resolver.resolve(fid, fpath, local, recv or "")
        hits, conf, why = found
        if (
            (self.owners or self.builtins)
            and recv
            and local == self.name
            and (not hits or why in GUESSES)
        ):
            if self._shared(fpath, local, recv, caller or "", line):
                hits, conf, why = self.wanted_keys, 0.9, "receiver type"
        if why == "external" or (self.wanted_keys and hits and hits.isdisjoint(self.wanted_keys)):
            return None
        if kind == "type" and hits and hits <= self.values and language_family(fpath) == _JS:
            return None  # a TypeScript type names no function or variable (`value: bigint`)
        if why in GUESSES and (local != self.name or kind not in CALL_KINDS):
            return None  # `b = a.f`: a call of `b` is f's only where the rules lead to f;
            # a name used as a value or an attribute is listed only where resolved
        if local != self.name and (kind not in CALL_KINDS or not hits.isdisjoint(self.classes)):
            return None  # through another name only a function's calls: `cls = Option`'s
            # `cls()` and `__all__ = ["alias"]` are uses of that name (jedi, pyright)
        if conf < self.min_confidence:
            return None
        return Site(fpath, line, local, kind, caller or "", recv or "", conf, why)

    def _shared(self, path: str, name: str, receiver: str, caller: str, line: int) -> bool:
        """Whether the receiver is typed as a class or an interface of the method's family."""
        if language_family(path) != "javascript":
            return False
        value = self.project.receiver_value(self.project.view(path), caller, receiver, line)
        if value is not None and value[0] in self.builtins:
            return True
        found = owner(self.project, value, name)
        if not found and value is not None and value[0] == "super" and self.builtins:
            return (value[1], value[2]) in self.owners  # `super.concat` in `extends Array`
        return not self.owners.isdisjoint(found)


def _one_per_line(sites: list[Site]) -> list[Site]:
    """One site per line (two calls on a line are one place to look), best first."""
    best: dict[tuple[str, int], tuple[tuple[bool, float], Site]] = {}
    for site in sites:
        where = (site.path, site.line)
        rank = (site.kind in CALL_KINDS, site.confidence)
        kept = best.get(where)
        if kept is None or rank > kept[0]:
            best[where] = (rank, site)
    order = [(s.kind == "import", -s.confidence, s.path, s.line, s) for _, s in best.values()]
    order.sort(key=_first_four)
    return [entry[4] for entry in order]


def _first_four(entry: tuple) -> tuple:
    return entry[:4]


def _stub_twins(every: list[Definition], wanted: list[Definition]) -> frozenset:
    """The definitions of the same name and scope in the stub beside a wanted one (`m.pyi`
    for `m.py`, and back)."""
    pairs = {(_twin_path(d.path), d.scope) for d in wanted} - {("", "")}
    return frozenset((d.path, d.line) for d in every if (d.path, d.scope) in pairs) - {
        (d.path, d.line) for d in wanted
    }


def _twin_path(path: str) -> str:
    if path.endswith(".pyi"):
        return path[:-1]
    return path + "i" if path.endswith(".py") else ""


def _import_sites(
    db: sqlite3.Connection,
    project: Project,
    name: str,
    wanted: frozenset[tuple[str, int]],
    out: list[Site],
    js_only: bool = False,
) -> None:
    """`from m import name` lines that bring one of the wanted definitions in, added to `out`
    (`js_only`: in JavaScript/TypeScript files only)."""
    rows = db.execute(
        "SELECT f.path, s.line, s.name, s.scope, s.module, s.orig FROM symbols s "
        "JOIN files f ON f.id = s.file_id WHERE s.kind = 'import' AND s.orig = ?",
        (name,),
    )
    for path, line, local, scope, module, orig in rows:
        if language_family(path) not in FAMILIES or (js_only and _not_js(path)):
            continue
        value = project.imported(project.view(path), local, frozenset(), [(module, orig)])
        if value is not None and (value[1], project.line_of(value)) in wanted:
            out.append(Site(path, line, local, "import", scope or "", "", 0.95, "import"))


def _not_js(path: str) -> bool:
    return language_family(path) != "javascript"


def _followed(
    project: Project,
    resolver: Resolver,
    where: tuple[str, int],
    name: str,
    receiver: str,
    caller: str,
) -> tuple[frozenset[tuple[str, int]], float, str]:
    """Resolution by the language's rules; a guess by name only when they cannot tell."""
    path, line = where
    value, how = project.resolve(path, name, receiver, caller, line)
    if value is not None and value[0] == "union":  # `x: A | B`: each member's is a use
        hits = frozenset((v[1], project.line_of(v)) for v in value[2] if v[0] in ("def", "class"))
        if hits:
            return hits, 0.9, how
    if value is not None and value[0] in ("def", "class"):
        return (
            frozenset({(value[1], project.line_of(value))}),
            0.95 if how in ("import", "same file") else 0.9,
            how,
        )
    if value is not None:  # external, or a module or an instance called: not a definition
        return frozenset(), 0.0, "external"
    if not receiver or name in BUILTIN_METHODS[language_family(path)]:
        # a bare name the file does not bind is a local or a builtin, never another module's;
        # `x.get()` on an untyped x is a dict's (a list's, a Map's …), not the project's
        return frozenset(), 0.0, "external"
    family = resolver._family(path)
    if len(family.defs) == 1:
        return family.keys, 0.45, "unique name"
    return family.keys, 0.4 if family.defs else 0.2, "name match"


def outline(db: sqlite3.Connection, path: str) -> list[Definition]:
    row = db.execute(
        "SELECT id FROM files WHERE path = ?", (path.strip().removeprefix("./"),)
    ).fetchone()
    if row is None:
        return []
    return _defs(
        db.execute(
            f"SELECT {_DEF_COLS} FROM symbols s JOIN files f ON f.id = s.file_id "
            "WHERE s.file_id = ? ORDER BY s.line, s.kind",
            (row[0],),
        )
    )
