"""TypeScript/JavaScript: a method's family, as the compiler's findReferences relates them —
the declarations of its name in the classes and interfaces that share one of its base
declarations (an override, the abstract method or interface member it implements through
`extends` or `implements`, a sibling's); a call of any of them may run the target, and a call
on a receiver typed as one of them (`o: Observer` in `o.complete()`) is a use of it."""

from __future__ import annotations

import sqlite3

from core.codemap.byname import Definition
from core.codemap.fileview import EXTERNAL, Value
from core.codemap.langs import language_family
from core.codemap.resolve import Project

Owner = tuple[str, str]  # (path, class or interface)


class Family:
    """The owners of a method's family, the declarations besides the wanted ones, and the
    builtin containers it overrides a method of (`class Tuple extends Array`: "seq")."""

    def __init__(
        self,
        owners: frozenset[Owner],
        declared: list[tuple[str, int]],
        builtins: frozenset = frozenset(),
    ) -> None:
        self.owners = owners
        self.declared = declared  # (path, line) of each declaration outside the targets
        self.builtins = builtins  # what the resolver's values call them: "seq", "map"


NONE = Family(frozenset(), [])
_CONTAINERS = {"Array": "seq", "ReadonlyArray": "seq", "Map": "map", "ReadonlyMap": "map"}
_CONTAINERS |= {"Set": "set", "ReadonlySet": "set"}
_SET_ONLY = frozenset({"add", "has", "delete", "clear"})  # a Set is read as an array: these
# are a Set's, the rest (`forEach`, `values`) may be an array's


def family(
    db: sqlite3.Connection, project: Project, all_defs: list[Definition], wanted: list[Definition]
) -> Family:
    targets = [d for d in wanted if d.kind == "method" and language_family(d.path) == "javascript"]
    if not targets:
        return NONE
    name = targets[0].name
    declarers: dict[Owner, set[int]] = {}
    for d in all_defs:
        if _js_member(d):
            declarers.setdefault((d.path, d.scope), set()).add(d.line)
    for path, scope, line in db.execute(
        "SELECT f.path, b.scope, b.line FROM binds b JOIN files f ON f.id = b.file_id "
        "WHERE b.kind = 'attr' AND b.name = ?",
        (name,),
    ):  # an interface's property or method signature (each overload's), a class field
        if scope and language_family(path) == "javascript":
            declarers.setdefault((path, scope), set()).add(line)
    roots: set[Owner] = set()
    for d in targets:
        roots |= {c for c in project.mro(d.path, d.scope)[0] if c in declarers}
    mine = {(d.path, line) for d in targets for line in declarers.get((d.path, d.scope), ())}
    mine |= {(d.path, d.line) for d in targets}  # a target's overloads are the target
    owners = {c for c in declarers if roots.intersection(project.mro(*c)[0])}
    declared = [(c[0], line) for c in sorted(owners) for line in sorted(declarers[c])]
    builtins = _containers(project, targets, name)
    return Family(frozenset(owners), [w for w in declared if w not in mine], builtins)


def _containers(project: Project, targets: list[Definition], name: str) -> frozenset:
    """The builtin containers a target's class extends or implements (`extends Array<T>`,
    `implements Map<K, V>`): a call of `name` on one of them may run the target."""
    out = set()
    for d in targets:
        for path, cls in project.mro(d.path, d.scope)[0]:
            view = project.view(path)
            for base in view.bases.get(cls, []):
                head = base.split("[", 1)[0]
                kind = _CONTAINERS.get(head)
                if kind is None or project.chain(view, "", [head]) not in (None, EXTERNAL):
                    continue  # a project class of that name is no builtin
                if kind != "set" or name in _SET_ONLY:
                    out.add("seq" if kind == "set" else kind)
    return frozenset(out)


def _js_member(d: Definition) -> bool:
    return d.kind == "method" and bool(d.scope) and language_family(d.path) == "javascript"


def owner(project: Project, value: Value | None, name: str) -> set[Owner]:
    """The classes or interfaces whose declaration of `name` a receiver's value reaches (each
    member's, of a union): the first along its hierarchy that declares it."""
    if value is None:
        return set()
    if value[0] == "union":
        return set().union(*(owner(project, v, name) for v in value[2]))  # type: ignore[misc]
    if value[0] not in ("inst", "class", "super"):
        return set()
    classes = project.mro(value[1], value[2])[0]
    for path, cls in classes[1:] if value[0] == "super" else classes:
        view = project.view(path)
        if f"{cls}.{name}" in view.defs or (cls, name) in view.attrs:
            return {(path, cls)}
    return set()
