"""Name resolution that follows the language (Python, JavaScript/TypeScript).

A name in a file means what the language says: a binding in the enclosing function, an import
(followed through re-exports: `__init__` imports, `from x import *` filtered by `__all__`,
`export … from`), a definition of the module. A receiver has a type when one is visible: an
assignment from a constructor (`app = Flask()`, `self.x = Foo()`, `new Foo()`), an annotated
parameter or variable, `self`/`this`/`cls`/`super()`; a method is looked up along the class
hierarchy. A module that is not a file of the project is external, whatever its name: `import
json` inside `pkg/json/` is the standard library's, not `pkg/json`.
"""

from __future__ import annotations

import sqlite3

from core.codemap.deadline import Deadline
from core.codemap.fileview import (
    CLASSY,
    CONSTRUCTED,
    DOTTED,
    EXTERNAL,
    JS_GLOBALS,
    JS_NEW,
    LITERAL_START,
    LOCAL,
    PY_BUILTINS,
    TS_GLOBALS,
    FileView,
    Value,
    ViewCache,
    enclosing_class,
    load_view,
    python_roots,
)
from core.codemap.infer import Inference, union
from core.codemap.modules import Modules
from core.codemap.tsinfer import TS_EXTS, TypeScriptTypes
from core.codemap.typeexpr import split_top


class Project(Modules, Inference, TypeScriptTypes):
    """The index as the resolver needs it; one per question (or per impact walk)."""

    def __init__(
        self,
        db: sqlite3.Connection,
        cache: ViewCache | None = None,
        deadline: Deadline | None = None,
    ) -> None:
        self.db = db
        self.cache = cache or ViewCache()
        self.deadline = deadline  # each file view loaded first looks at it (OutOfTime)
        if self.cache.files is None:
            ids: dict[str, int] = dict(db.execute("SELECT path, id FROM files"))
            self.cache.files = (ids, python_roots(list(ids)))
        self.ids, self.py_roots = self.cache.files
        self.views = self.cache.views
        self.modules = self.cache.modules
        self.instances: dict[tuple, Value | None] = {}
        self.bound, self.bound_key, self.params_memo = {}, (), {}

    # --- loading ----------------------------------------------------------------------------
    def view(self, path: str) -> FileView:
        found = self.views.get(path)
        if found is not None:
            return found
        if self.deadline is not None:
            self.deadline.check()
        view = load_view(self.db, path, self.ids.get(path, -1))
        self.cache.keep(view)
        return view

    # --- names --------------------------------------------------------------------------------
    def _defined(self, view: FileView, scope: str, qualified: str) -> Value | None:
        kind = view.defs[qualified][0]
        if kind in CLASSY:
            return ("class", view.path, qualified)
        if kind == "module":  # a TypeScript namespace (or a Rust/C++ module)
            return ("ns", view.path, qualified)
        if kind in ("variable", "constant"):
            types = view.binds.get((scope, qualified), [])
            return self.agreed(view, [(scope, t) for t in types]) if types else None
        return ("def", view.path, qualified)

    def name(self, view: FileView, scope: str, name: str, line: int = 0) -> Value | None:
        """What a bare `name` means in function `scope` of the file (at `line`: a class body
        sees its own names first)."""
        body = self._class_body(view, scope, line)
        if body and f"{body}.{name}" in view.defs:
            return self._defined(view, body, f"{body}.{name}")
        if body and (body, name) in view.scoped:
            return self.imported(view, name, frozenset(), view.scoped[(body, name)])
        parts = scope.split(".") if scope else []
        for i in range(len(parts), -1, -1):
            here = ".".join(parts[:i])
            if here and view.defs.get(here, ("", 0))[0] in CLASSY:
                continue  # a class body's names are not visible in its methods
            found = self._bound_here(view, here, name, line, i == len(parts))
            if found is not None:
                return found
        if name in view.imports:
            return self.imported(view, name, frozenset())
        if name in view.defs:
            return self._defined(view, "", name)
        found = self._from_stars(view, name, frozenset())
        if found is None and self._is_global(view, name):
            return EXTERNAL
        return found

    def _bound_here(
        self, view: FileView, here: str, name: str, line: int, own: bool = False
    ) -> Value | None:
        """What `name` means in function `here` when that function binds it (LEGB: a local
        hides the module's name, whatever it holds); None when `here` does not bind it."""
        if (here, name) in view.globals:
            return None
        for first, last, typed_as in view.narrows.get((here, name), ()):
            if first <= line <= last:
                narrowed = self.instance(view, here, typed_as)
                if narrowed is not None:
                    return narrowed
        types = view.binds.get((here, name), [])
        many = own and line and len(types) > 1
        typed = self._flowed(view, here, name, line, types) if many else None
        if typed is None and types:
            lines = view.bind_lines.get((here, name), ())
            typed = self.agreed(view, [(here, t, n) for t, n in zip(types, lines, strict=False)])
        if typed is not None:
            return typed
        nested = f"{here}.{name}" if here else name
        if here and nested in view.defs:
            return self._defined(view, here, nested)
        if (here, name) in view.scoped:
            return self.imported(view, name, frozenset(), view.scoped[(here, name)])
        if view.bound_in(here, name, line) or (here and (here, name) in view.binds):
            return LOCAL
        return None

    def _flowed(
        self, view: FileView, here: str, name: str, line: int, types: list[str]
    ) -> Value | None:
        """A local as a use on `line` sees it: what the assignments above it give (pyright
        narrows a declared type to the value assigned) with its declared type (jedi's)."""
        declared = next((t for t in types if t.startswith(":")), "")
        lines = view.bind_lines[(here, name)]
        pairs = [p for p in zip(lines, types, strict=True) if p[1][:1] not in ":+"]
        if not pairs:
            return None
        seen = _bound_above(pairs, line, view.handed().blocks.get((here, name), {}))
        typed = self.agreed(view, [(here, t) for t in seen]) if seen else None
        said = self.instance(view, here, declared) if declared else None
        if said is not None and typed is not None and self._assignable(typed, said):
            return union([typed, said])  # `x: Base = Derived()`: pyright says Derived, jedi Base
        if not seen:
            return said
        return said or typed or LOCAL  # bound above to what nobody knows: not the others

    def _assignable(self, value: Value, declared: Value) -> bool:
        """Whether an instance of a project class is one of what `declared` names."""
        wanted = {(v[1], v[2]) for v in (declared[2] if declared[0] == "union" else (declared,))}
        values = value[2] if value[0] == "union" else (value,)
        return any(v[0] == "inst" and wanted & set(self.mro(v[1], v[2])[0]) for v in values)

    @staticmethod
    def _class_body(view: FileView, scope: str, line: int) -> str:
        """The class whose body (not one of its methods) holds `line`, or ""."""
        inner = ""
        for start, end, qualified in view.classes if line else ():
            if start <= line <= end and len(qualified) > len(inner):
                inner = qualified
        return "" if not inner or scope.startswith(inner + ".") or scope == inner else inner

    @staticmethod
    def _is_global(view: FileView, name: str) -> bool:
        if view.family == "python":
            return name in PY_BUILTINS
        return name in (TS_GLOBALS if view.path.endswith(TS_EXTS) else JS_GLOBALS)

    @staticmethod
    def enclosing_class(view: FileView, scope: str) -> str:
        return enclosing_class(view, scope)

    # --- attributes ---------------------------------------------------------------------------
    def attribute(self, value: Value | None, attr: str) -> Value | None:
        if value is None or value[0] == "ext":
            return value
        if value[0] == "union":  # each member's, those that have it
            return union([self.attribute(v, attr) for v in value[2]])  # type: ignore[union-attr]
        if value[0] in ("seq", "map", "tuple"):
            return self.contained(value, attr)
        if value[0] == "ret":
            return EXTERNAL
        if value[0] == "module":
            found = self.export(value[1], attr)
            return found
        if value[0] in ("class", "inst", "super"):
            return self.member(value, attr)
        if value[0] == "ns":
            view = self.view(value[1])
            inner = f"{value[2]}.{attr}"
            return self._defined(view, value[2], inner) if inner in view.defs else None
        return None

    def member(self, value: Value, attr: str) -> Value | None:
        """`attr` of a class or instance, looked up along the class hierarchy."""
        classes, complete = self.mro(value[1], value[2])
        declared = False  # a TypeScript field or signature of a type not known
        for path, cls in classes[1:] if value[0] == "super" else classes:
            view = self.view(path)
            qualified = f"{cls}.{attr}"
            assigned = view.attrs.get((cls, attr))
            if qualified not in view.defs and not assigned:
                continue
            pairs = self.bound_along(value, path, cls) if value[0] != "class" else ()
            if qualified in view.defs:
                found = self._defined(view, cls, qualified)
                if pairs and found is not None and found[0] == "def":
                    return found + (pairs,)  # type: ignore[return-value]
                return found
            if all(b[1] == ">this" for b in assigned):  # an interface's `trim(): this`
                return ("ret", "", value if value[0] == "inst" else ("inst", path, cls))  # type: ignore[return-value]
            with self.binding(pairs):
                typed = self.agreed(view, assigned)  # type: ignore[arg-type]
            if typed is not None:
                return typed
            declared = declared or assigned is not None
        if declared or complete == "all":
            return self.missing_member(value[1], declared)
        return EXTERNAL if complete == "ext" else None

    def agreed(self, view: FileView, bindings: list[tuple]) -> Value | None:
        """What a name bound several times holds: its declared type (`x: Base = Derived()`),
        else the first type that resolves, unless it is also a copy of something unknown
        (`self.send = send`) or of two different things: then nothing is sure. Each binding
        is (scope, type) or (scope, type, line); an element put in (`+list[Foo]`: `xs.append(
        Foo())`) says what the name holds only when its bindings do not."""
        adds = [b for b in bindings if b[1][:1] == "+"]
        if adds:
            rest = [b for b in bindings if b[1][:1] != "+" and b[1] not in _EMPTY]
            found = self.agreed(view, rest) if rest else None
            if found is None or found[0] in ("seq", "map"):  # `xs = []`, `xs = list(ys)`
                added = self.agreed(view, [(b[0], b[1][1:]) for b in adds])
                if added is not None and self.element(added, "") in (None, EXTERNAL):
                    added = None  # what was put in is not the project's: it says nothing
                return union([found, added]) if found is not None else added
            return found
        declared = [b[:2] for b in bindings if b[1].startswith(":")]
        typed = self.instance(view, *declared[0]) if declared else None
        if typed is not None:  # `self.send: Send = …`: the declared type holds where it is read
            return typed
        bindings = [b for b in bindings if not b[1].startswith(":")]
        found: list[tuple[bool, Value]] = []
        unknown = False
        for scope, type_name, *at in bindings:
            typed = self.instance(view, scope, type_name, *at)
            copy = type_name.startswith(("=", "@", "&"))
            unknown = unknown or (typed is None and copy and len(bindings) > 1)
            if typed is not None:
                found.append((copy, typed))
        if unknown:  # `c = Converter(x)` or `c = a.converter`: an instance is still one of
            objects = [v for _, v in found if v[0] in _OBJECTS]  # what c holds; an alias
            return union(objects) if objects and len(objects) == len(found) else None  # not
        if len({v for copy, v in found if copy}) > 1:
            return None
        return found[0][1] if found else None

    def mro(self, path: str, cls: str) -> tuple[list[tuple[str, str]], str]:
        """The class and its project ancestors, depth first; and 'ext' when an ancestor is
        external, '' when one is unknown, 'all' when every ancestor is in the project."""
        order: list[tuple[str, str]] = []
        state = "all"
        stack = [(path, cls)]
        while stack and len(order) < 64:
            here = stack.pop(0)
            if here in order:
                continue
            order.append(here)
            view = self.view(here[0])
            for base in view.bases.get(here[1], []):
                if view.family == "javascript":
                    base = _members_of(base)
                head = base.split("[", 1)[0]  # `Base[Foo]`: the class Base
                if head == "Generic" and view.family == "javascript":
                    continue  # `class Box<T>`: its type variables (tsbinds.py), no base
                found = self.chain(view, "", head.split("."))
                if found is not None and found[0] == "class":
                    stack.append((found[1], found[2]))
                elif found is None:
                    state = ""
                elif state == "all" and head not in ("object", "Object"):
                    state = "ext"
        return order, state

    # --- references ---------------------------------------------------------------------------
    def resolve(
        self, path: str, name: str, receiver: str, scope: str, line: int = 0
    ) -> tuple[Value | None, str]:
        """What a reference means, and how it was found (import, same file, receiver type)."""
        view = self.view(path)
        if not receiver:
            found = self.name(view, scope, name, line)
            how = "same file" if found is not None and found[1] == path else "import"
            return found, how
        base = self.receiver_value(view, scope, receiver, line)
        how = "self" if receiver.split(".")[0] in ("self", "this", "cls") else "receiver type"
        if base is not None and base[0] in ("module", "ns"):
            how = "import"
        return self.attribute(base, name), how

    def receiver_value(self, view: FileView, scope: str, receiver: str, line: int) -> Value | None:
        """What a reference's receiver (`a.b`, `f().g`, `super`, `new Foo()`) holds."""
        if view.family == "python":
            if receiver.startswith(LITERAL_START):
                return EXTERNAL
            return self.evaluate(view, scope, receiver, line)
        if receiver in ("super()", "super") or receiver.startswith(("super().", "super.")):
            return self.chain(view, scope, ["super()", *receiver.split(".")[1:]])  # JS `super.f`
        if DOTTED.fullmatch(receiver):
            return self.chain(view, scope, receiver.split("."), line)
        if "(" in receiver and not receiver.startswith(LITERAL_START):  # `z.string().min(1)`
            return self.evaluate(view, scope, JS_NEW.sub("", receiver, count=1), line)
        typed = CONSTRUCTED.fullmatch(
            JS_NEW.sub("", receiver, count=1) if view.family == "javascript" else receiver
        )
        if typed:
            return self.instance(view, scope, typed.group(1))
        if receiver.startswith(LITERAL_START) and receiver[:1] != "(":
            return EXTERNAL  # `"a".split()`, `[x].map()`; `(a || b).f()`: nobody knows
        return None

    def line_of(self, value: Value) -> int:
        return self.view(value[1]).defs.get(value[2], ("", 0))[1]


_EMPTY = frozenset(  # `xs = set()`: what is put in says what it holds
    "list set dict frozenset deque collections.deque OrderedDict collections.OrderedDict "
    "defaultdict collections.defaultdict".split()
)
_OBJECTS = frozenset({"inst", "seq", "map", "tuple"})  # values, not functions or classes


def _bound_above(pairs: list[tuple[int, str]], line: int, blocks: dict[int, int]) -> list[str]:
    """The bindings a use on `line` of the same function can see: the last one above it in
    its own block or one around it, and those after that one above the use (in branches
    between); none when none is above (a binding further down is seen only through a loop:
    the caller then asks all of them)."""
    above = [(at, t) for at, t in pairs if 0 < at < line]
    sure = [at for at, _ in above if blocks.get(at, 0) == 0 or line <= blocks[at]]
    start = max(sure) if sure else 0
    return [t for at, t in above if at >= start]


_KEEPS_MEMBERS = frozenset({"Omit", "Pick", "Partial", "Required", "Readonly"})


def _members_of(base: str) -> str:
    """`implements Omit<Store<T>, 'setState'>` (as `Omit[Store[T],?]`): the type whose
    members it keeps, Store[T], which the compiler relates the class's members to."""
    head, _, rest = base.partition("[")
    if head not in _KEEPS_MEMBERS or not rest.endswith("]"):
        return base
    return split_top(rest[:-1], ",")[0] or base
