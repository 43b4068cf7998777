"""Ground truth for `bench/codemap.py`: Python call sites from the `ast` module, resolved by the
language's own rules. Written apart from core/codemap and importing nothing of it.

The rules: `sys.path` is the project root (and its `src/`); a name is looked up function → enclosing functions
→ module → builtins (class bodies see their own names only); a name assigned anywhere in a
function is local to it; `import a.b` binds `a`; `from m import n` takes `n` from module `m` or
the submodule `m.n`; `from m import *` takes `m.__all__` (or its public names); a module that
is not a file of the project is external. A value's type is known from `Cls(...)`, from a
literal (builtin), from an annotation, from `self`/`cls`/`super()` in a method; attributes of a
class or instance are looked up along its bases (depth first), including `self.x = …` in any
of its methods. A call, a bare decorator or a base class is a site of the definition it
resolves to. When the function's receiver cannot be typed by these rules the site is
*undecided* (counted apart, never scored); when it resolves elsewhere or outside, it is not a
site of the target.
"""

from __future__ import annotations

import ast
import builtins
import os
from collections import defaultdict
from dataclasses import dataclass, field

EXT = ("ext", None)
_BUILTINS = frozenset(dir(builtins))
_LITERALS = (ast.Constant, ast.List, ast.Dict, ast.Set, ast.Tuple, ast.JoinedStr, ast.ListComp)
_LITERALS += (ast.DictComp, ast.SetComp, ast.GeneratorExp)
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass
class Scope:
    kind: str  # module | function | class
    module: Module
    parent: Scope | None
    qual: str
    names: dict[str, list] = field(default_factory=lambda: defaultdict(list))
    owner: tuple | None = None  # the class key a method belongs to


@dataclass
class ClassInfo:
    key: tuple[str, str]
    scope: Scope  # where the class statement runs (bases are evaluated there)
    body: Scope
    bases: list[ast.expr]
    attrs: dict[str, list] = field(default_factory=lambda: defaultdict(list))


@dataclass
class Module:
    name: str
    path: str
    is_pkg: bool
    tree: ast.Module
    scope: Scope | None = None
    all: set[str] | None = None
    stars: list[str] = field(default_factory=list)


class Truth:
    def __init__(self, root: str) -> None:
        self.root = root
        self.modules: dict[str, Module] = {}
        self.classes: dict[tuple[str, str], ClassInfo] = {}
        self.defs: dict[tuple[str, str], str] = {}  # key → kind (function, method, class)
        self.sites: dict[tuple[str, str], set[tuple[str, int, str]]] = defaultdict(set)
        self.undecided: dict[str, set[tuple[str, int]]] = defaultdict(set)
        self.scopes: dict[int, Scope] = {}  # id(def or class node) → the scope of its body
        self._memo: dict[int, tuple | None] = {}
        self._active: set[int] = set()
        self.spans: dict[str, list[tuple[int, int, str]]] = defaultdict(list)  # functions
        self._load()

    def _load(self) -> None:
        for folder, dirs, files in os.walk(self.root):
            dirs[:] = sorted(d for d in dirs if d not in ("__pycache__", "site-packages"))
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                full = os.path.join(folder, name)
                rel = os.path.relpath(full, self.root).replace(os.sep, "/")
                try:
                    with open(full, "rb") as fh:
                        tree = ast.parse(fh.read())
                except (SyntaxError, ValueError):
                    continue
                parts = rel[:-3].removeprefix("src/").split("/")  # sys.path: root and src/
                is_pkg = parts[-1] == "__init__"
                dotted = ".".join(parts[:-1] if is_pkg else parts)
                if dotted and all(p.isidentifier() for p in dotted.split(".")):
                    self.modules.setdefault(dotted, Module(dotted, rel, is_pkg, tree))

    # --- values: ("module", name) ("class", key) ("inst", key) ("super", key) ("func", key)
    def module_attr(self, name: str, attr: str, guard: frozenset = frozenset()) -> tuple | None:
        module = self.modules.get(name)
        if module is None:
            return EXT
        if (name, attr) in guard:
            return None
        guard = guard | {(name, attr)}
        if attr in module.scope.names:
            return self.binding(module.scope, attr, guard)
        if f"{name}.{attr}" in self.modules:
            return ("module", f"{name}.{attr}")
        for star in module.stars:
            source = self.modules.get(star)
            if source is None:
                continue
            public = source.all if source.all is not None else None
            if (public is None and not attr.startswith("_")) or (public and attr in public):
                found = self.module_attr(star, attr, guard)
                if found is not None and found != EXT:
                    return found
        return None

    def binding(self, scope: Scope, name: str, guard: frozenset = frozenset()) -> tuple | None:
        """One name's value when all its bindings agree (`x = None` says nothing); else None."""
        results = set()
        for binding in scope.names[name]:
            if binding[0] == "value" and _is_none(binding[2]):
                continue
            found = self.bound(scope, binding, guard)
            if found is None:
                return None
            results.add(found)
        return results.pop() if len(results) == 1 else None

    def bound(self, scope: Scope, binding: tuple, guard: frozenset) -> tuple | None:
        """What one binding holds; memoized, and None for a binding that depends on itself."""
        slot = id(binding)
        if slot in self._memo:
            return self._memo[slot]
        if slot in self._active:
            return None
        self._active.add(slot)
        try:
            found = self._bound(scope, binding, guard)
        finally:
            self._active.discard(slot)
        if binding[0] != "from":  # a re-export's answer may depend on the guard
            self._memo[slot] = found
        return found

    def _bound(self, scope: Scope, binding: tuple, guard: frozenset) -> tuple | None:
        kind = binding[0]
        if kind in ("func", "class", "module", "inst"):
            return binding
        if kind == "from":
            found = self.module_attr(binding[1], binding[2], guard)
            if found is None and f"{binding[1]}.{binding[2]}" in self.modules:
                return ("module", f"{binding[1]}.{binding[2]}")
            return found
        if kind == "import":
            return ("module", binding[1]) if binding[1] in self.modules else EXT
        if kind == "value":
            return self.value(binding[1], binding[2])
        if kind == "annotation":
            return self.instance(self.annotation(binding[1], binding[2]))
        return None  # a plain parameter, a loop variable, …

    def lookup(self, scope: Scope, name: str) -> tuple | None:
        here: Scope | None = scope
        first = True
        while here is not None:
            if (here.kind != "class" or first) and name in here.names:
                return self.binding(here, name)
            first = False
            here = here.parent
        return EXT if name in _BUILTINS else None

    def expr(self, scope: Scope, node: ast.expr) -> tuple | None:
        if isinstance(node, ast.Name):
            return self.lookup(scope, node.id)
        if isinstance(node, ast.Attribute):
            return self.attribute(self.expr(scope, node.value), node.attr)
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id == "super" and scope.owner:
                return ("super", scope.owner)
            return self.instance(self.expr(scope, node.func))
        if isinstance(node, _LITERALS):
            return EXT
        return None

    value = expr

    @staticmethod
    def instance(found: tuple | None) -> tuple | None:
        if found is None or found == EXT:
            return found
        return ("inst", found[1]) if found[0] == "class" else None

    def annotation(self, scope: Scope, node: ast.expr | None) -> tuple | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                node = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                return None
        if isinstance(node, ast.Subscript) and _dotted(node.value) in (
            "Optional",
            "typing.Optional",
        ):
            node = node.slice
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            sides = [s for s in (node.left, node.right) if _dotted(s) != "None"]
            node = sides[0] if len(sides) == 1 else None
        if isinstance(node, ast.Name | ast.Attribute):
            return self.expr(scope, node)
        return None

    def attribute(self, base: tuple | None, attr: str) -> tuple | None:
        if base is None or base == EXT:
            return base
        if base[0] == "module":
            return self.module_attr(base[1], attr)
        if base[0] in ("class", "inst", "super"):
            return self.member(base, attr)
        return None

    def member(self, base: tuple, attr: str) -> tuple | None:
        order, outside = self.mro(base[1])
        for key in order[1:] if base[0] == "super" else order:
            info = self.classes[key]
            if attr in info.body.names:
                return self.binding(info.body, attr)
            if attr in info.attrs:
                bound = [self.bound(s, b, frozenset()) for s, b in info.attrs[attr]]
                values = {
                    v
                    for (s, b), v in zip(info.attrs[attr], bound, strict=True)
                    if not (b[0] == "value" and _is_none(b[2]))
                }
                return values.pop() if len(values) == 1 else None
        return EXT if outside == "ext" else None

    def mro(self, key: tuple) -> tuple[list[tuple], str]:
        order: list[tuple] = []
        outside = ""
        pending = [key]
        while pending:
            current = pending.pop(0)
            if current in order or current not in self.classes:
                continue
            order.append(current)
            info = self.classes[current]
            for base in info.bases:
                found = self.expr(info.scope, base)
                if found is not None and found[0] == "class":
                    pending.append(found[1])
                elif found == EXT and _dotted(base) != "object":
                    outside = outside or "ext"
                elif found is None:
                    outside = "unknown"
        return order, outside


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _dotted(node: ast.AST | None) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value)
        return f"{head}.{node.attr}" if head else ""
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    return ""
