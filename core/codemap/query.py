"""Questions to the index: definitions, references (resolved, with confidence), impact, outline."""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass

from core.codemap.fileview import BUILTIN_METHODS, CLASSY, FAMILIES, ViewCache
from core.codemap.imports import file_matches, module_stems
from core.codemap.langs import language_family
from core.codemap.resolve import Project

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
SELF_RECEIVERS = frozenset({"", "self", "this", "cls", "super()", "Self", "$this", "static"})


@dataclass(frozen=True)
class Definition:
    path: str
    name: str
    kind: str
    line: int
    end_line: int
    scope: str
    signature: str
    exported: bool = False

    @property
    def qualified(self) -> str:
        return f"{self.scope}.{self.name}" if self.scope else self.name


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
    rows = db.execute(
        f"SELECT {_DEF_COLS} FROM symbols s JOIN files f ON f.id = s.file_id "
        "WHERE s.name = ? AND s.kind != 'import' ORDER BY f.path, s.line",
        (name,),
    )
    found = _defs(rows)
    if scope:
        found = [d for d in found if d.scope == scope or d.scope.endswith("." + scope)]
    if path:
        found = [d for d in found if d.path == path or d.path.endswith("/" + path)]
        if not scope and any(not d.scope for d in found):  # `m.py:evolve`: the module's own,
            found = [d for d in found if not d.scope]  # not a method of the same name there
    return found


class _Resolver:
    """Scores how surely a reference in a file points at one of a name's definitions."""

    def __init__(self, db: sqlite3.Connection, name: str) -> None:
        self.db = db
        self.all_defs = definitions(db, name)
        self.all_keys = frozenset((d.path, d.line) for d in self.all_defs)
        self.imports: dict[int, list[tuple[str, str, str]]] = {}
        self.families: dict[str, _Family] = {}

    def prefetch(self, ref_name: str) -> None:
        """Load, in one query, the imports that can matter to the references to `ref_name`:
        those binding the name itself or the receiver it is called on."""
        rows = self.db.execute(
            """
            SELECT DISTINCT s.file_id, s.name, s.module, s.orig FROM symbols s JOIN (
                SELECT DISTINCT file_id, receiver, CASE WHEN instr(receiver, '.') > 0
                    THEN substr(receiver, 1, instr(receiver, '.') - 1) ELSE receiver END AS head
                FROM refs WHERE name = ?) r
            ON s.file_id = r.file_id AND (s.name = ? OR s.name = r.head OR s.name = r.receiver)
            WHERE s.kind = 'import'""",
            (ref_name, ref_name),
        )
        for fid, *row in rows:
            self.imports.setdefault(fid, []).append(tuple(row))
        for (fid,) in self.db.execute(
            "SELECT DISTINCT file_id FROM refs WHERE name=?", (ref_name,)
        ):
            self.imports.setdefault(fid, [])

    def _imports_of(self, file_id: int) -> list[tuple[str, str, str]]:
        if file_id not in self.imports:
            self.imports[file_id] = self.db.execute(
                "SELECT name, module, orig FROM symbols WHERE file_id=? AND kind='import'",
                (file_id,),
            ).fetchall()
        return self.imports[file_id]

    def _family(self, path: str) -> _Family:
        """A Ruby call cannot mean a Java method: keep definitions of the same language family."""
        family = language_family(path)
        if family not in self.families:
            self.families[family] = _Family(
                [d for d in self.all_defs if language_family(d.path) == family]
            )
        return self.families[family]

    def resolve(
        self, file_id: int, path: str, name: str, receiver: str
    ) -> tuple[frozenset[tuple[str, int]], float, str]:
        """The definitions (path, line) a reference may mean, the confidence and why."""
        head = receiver.split(".")[0].split("(")[0].split("::")[0] if receiver else ""
        family = self._family(path)
        for local, key, imported in self._imports_of(file_id):
            by_name = local == name
            if by_name or (head and local in (head, receiver)):
                hits = family.from_module(key, imported, by_name)
                if hits:
                    return hits, 0.95, "import"
                return frozenset(), 0.0, "external"
        if head[:1].isupper():  # Tax.compute(), Config::new(): a definition owned by `head`
            owned = family.owned_by(head)
            if owned:
                return owned, 0.8, "receiver type"
        if receiver in SELF_RECEIVERS:
            same = family.in_file(path)
            if same:
                return same, 0.9, "same file"
        if len(family.defs) == 1:  # a method call on an unknown object stays a guess
            sure = receiver in SELF_RECEIVERS or head[:1].isupper()
            return family.keys, 0.7 if sure else 0.45, "unique name"
        return family.keys, 0.4 if family.defs else 0.2, "name match"


class _Family:
    """One language family's definitions of a name, with the lookups resolution needs, cached."""

    def __init__(self, defs: list[Definition]) -> None:
        self.defs = defs
        self.keys = frozenset((d.path, d.line) for d in defs)
        self.by_suffix: dict[str, list[Definition]] = {}
        for d in defs:
            for stem in module_stems(d.path):
                parts = stem.split("/")
                for i in range(len(parts)):
                    self.by_suffix.setdefault("/".join(parts[i:]), []).append(d)
        self.cache: dict[tuple, frozenset[tuple[str, int]]] = {}

    def _matching(self, key: str) -> list[Definition]:
        if key.startswith("dir:"):
            return [d for d in self.defs if file_matches(key, d.path)]
        return self.by_suffix.get(key, [])

    def from_module(self, key: str, imported: str, by_name: bool) -> frozenset[tuple[str, int]]:
        slot = ("module", key, imported, by_name)
        if slot not in self.cache:
            keys = [key, f"{key}/{imported}"] if imported and imported != "*" else [key]
            exact = imported if by_name and imported not in ("", "*", "default") else ""
            self.cache[slot] = frozenset(
                (d.path, d.line)
                for k in keys
                if k
                for d in self._matching(k)
                if not exact or d.name == exact
            )
        return self.cache[slot]

    def owned_by(self, head: str) -> frozenset[tuple[str, int]]:
        slot = ("owner", head)
        if slot not in self.cache:
            self.cache[slot] = frozenset(
                (d.path, d.line)
                for d in self.defs
                if d.scope == head or d.scope.endswith("." + head)
            )
        return self.cache[slot]

    def in_file(self, path: str) -> frozenset[tuple[str, int]]:
        slot = ("file", path)
        if slot not in self.cache:
            self.cache[slot] = frozenset(k for k in self.keys if k[0] == path)
        return self.cache[slot]


def references(
    db: sqlite3.Connection,
    target: str,
    min_confidence: float = 0.0,
    project: Project | None = None,
    cache: ViewCache | None = None,
    deadline: float | None = None,
    aliases: bool = False,
) -> tuple[list[Definition], list[Site]]:
    """Sites that reference `target`, best first; sites resolved to another definition dropped.
    In Python a use of another name for it (`from m import f as g; g()`, `g = f; g()`) names
    g, not f, as jedi and pyright count (and a rename leaves it alone): listed only with
    `aliases`, for impact (the call runs f)."""
    path, scope, name = split_target(target)
    resolver = _Resolver(db, name)
    project = project or Project(db, cache)
    wanted = definitions(db, target) if (path or scope) else resolver.all_defs
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
    overrides = [
        s for s in _overrides(project, resolver, wanted) if (s.path, s.line) not in wanted_keys
    ]
    wanted_keys |= {(s.path, s.line) for s in overrides}
    sites: list[Site] = []
    for local in names:
        resolver.prefetch(local)
        rows = db.execute(
            "SELECT r.file_id, f.path, r.line, r.kind, r.scope, r.receiver "
            "FROM refs r JOIN files f ON f.id = r.file_id WHERE r.name = ?",
            (local,),
        )
        for n, (fid, fpath, line, kind, caller, recv) in enumerate(rows):
            if deadline is not None and n % 32 == 0 and time.monotonic() >= deadline:
                break  # the caller (impact) says it stopped at its time limit
            if local != name and not aliases and fpath.endswith((".py", ".pyi")):
                continue  # (tsserver counts a TypeScript alias's uses: they stay)
            if language_family(fpath) in FAMILIES:
                found = _followed(project, resolver, (fpath, line), local, recv or "", caller or "")
            else:
                found = resolver.resolve(fid, fpath, local, recv or "")
            hits, conf, why = found
            if why == "external" or (wanted_keys and hits and hits.isdisjoint(wanted_keys)):
                continue
            if why in GUESSES and (local != name or kind not in CALL_KINDS):
                continue  # `b = a.f`: a call of `b` is f's only where the rules lead to f;
                # a name used as a value or an attribute is listed only where resolved
            if local != name and (kind not in CALL_KINDS or not hits.isdisjoint(classes)):
                continue  # through another name only a function's calls: `cls = Option`'s
                # `cls()` and `__all__ = ["alias"]` are uses of that name (jedi, pyright)
            if conf >= min_confidence:
                sites.append(Site(fpath, line, local, kind, caller or "", recv or "", conf, why))
    if wanted_keys:
        sites += _import_sites(db, project, name, wanted_keys)
    sites += overrides
    best: dict[tuple[str, int], Site] = {}
    for site in sites:  # one site per line: two calls on a line are one place to look
        kept = best.get((site.path, site.line))
        rank = (site.kind in CALL_KINDS, site.confidence)
        if kept is None or rank > (kept.kind in CALL_KINDS, kept.confidence):
            best[(site.path, site.line)] = site
    order = sorted(best.values(), key=lambda s: (s.kind == "import", -s.confidence, s.path, s.line))
    return wanted, order


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
    db: sqlite3.Connection, project: Project, name: str, wanted: frozenset[tuple[str, int]]
) -> list[Site]:
    """`from m import name` lines that bring one of the wanted definitions in."""
    out = []
    rows = db.execute(
        "SELECT f.path, s.line, s.name, s.scope, s.module, s.orig FROM symbols s "
        "JOIN files f ON f.id = s.file_id WHERE s.kind = 'import' AND s.orig = ?",
        (name,),
    )
    for path, line, local, scope, module, orig in rows:
        if language_family(path) not in FAMILIES:
            continue
        value = project.imported(project.view(path), local, frozenset(), [(module, orig)])
        if value is not None and (value[1], project.line_of(value)) in wanted:
            out.append(Site(path, line, local, "import", scope or "", "", 0.95, "import"))
    return out


def _overrides(project: Project, resolver: _Resolver, wanted: list[Definition]) -> list[Site]:
    """TypeScript/JavaScript: the declarations of a method in the classes that share one of
    its base declarations (an override, the abstract method it implements, a sibling's):
    a call of any of them may run the target, as the compiler's findReferences counts them."""
    targets = [d for d in wanted if d.kind == "method" and language_family(d.path) == "javascript"]
    if not targets or len(targets) == len(resolver.all_defs):
        return []
    roots: set[tuple[str, str]] = set()
    for d in targets:
        classes, _ = project.mro(d.path, d.scope)
        roots |= {(p, c) for p, c in classes if f"{c}.{d.name}" in project.view(p).defs}
    out = []
    for d in resolver.all_defs:
        if d.kind == "method" and language_family(d.path) == "javascript" and d not in targets:
            classes, _ = project.mro(d.path, d.scope)
            if roots.intersection(classes):
                out.append(Site(d.path, d.line, d.name, "override", "", "", 0.9, "override"))
    return out


def _followed(
    project: Project,
    resolver: _Resolver,
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
