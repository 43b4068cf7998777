"""What an expression holds, as far as the index can tell: the instance a type names, what a
call gives (a return annotation, else what its `return`s and `yield`s hand back), a copy
(`x = y.z[0]`), the element of a container (`list[Foo]`, `dict[str, Foo]`: indexing,
iteration, `.get()`, `.values()`, `.items()`), a union (`A | B`, `Optional`, `Union` and
names for unions, a conditional's branches) and a pytest fixture named by a parameter.

Values are tuples (what, path, detail): the resolver's `module|ns|class|inst|super|def|ext|
local` and, made here, `union` (detail: the members), `seq` (the element), `map` (key and
value), `tuple` (the items) and `ret` (a builtin method: detail is what calling it gives).
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING, Any

from core.codemap.fileview import DOTTED, EXTERNAL, FileView, Value
from core.codemap.generics import Generics
from core.codemap.pybinds import KEEPS_ELEMENTS, PAIRS_ELEMENTS
from core.codemap.tsexpr import FOLDS
from core.codemap.typeexpr import generic, members, split_top, steps, type_expr

SEQUENCES = frozenset(
    "list List Sequence MutableSequence Iterable Iterator Collection set Set frozenset "
    "FrozenSet AbstractSet MutableSet deque Deque Generator AsyncIterator AsyncIterable "
    "AsyncGenerator KeysView ValuesView Reversible Array".split()  # Array: TypeScript's
)
MAPPINGS = frozenset(
    "dict Dict Mapping MutableMapping defaultdict DefaultDict OrderedDict ChainMap Map".split()
)
_COPIES = ("=", "@")
_JS_KEEPS = frozenset({"slice", "filter", "concat", "toSorted", "toReversed"})  # JS arrays' own
_JS_ELEMENT = frozenset({"pop", "shift", "at", "find", "findLast"})  # one element back
_JS_MAPPED = frozenset({"map", "flatMap"})  # an array of what the callback gives: unknown
_GIVING = _JS_ELEMENT | frozenset(
    {"__getitem__", "get", "setdefault"}
)  # hand an element back  # a binding that holds what another expression holds


def _plain(value: Value | None) -> bool:
    """A project function as named (not yet one of a generic's, nor solved)."""
    return value is not None and value[0] == "def" and len(value) == 3


def union(values: list[Value | None]) -> Value | None:
    """One value for several (the unknown ones left out), a `union` when they differ."""
    flat: list[Value] = []
    for value in values:
        for one in value[2] if value is not None and value[0] == "union" else (value,):
            if one is not None and one not in flat:
                flat.append(one)
    if len(flat) > 1 and EXTERNAL in flat:
        flat.remove(EXTERNAL)  # `str | URL`: what the project defines is what matters
    if not flat:
        return None
    return flat[0] if len(flat) == 1 else ("union", "", tuple(flat))  # type: ignore[return-value]


class Inference(Generics):
    """The typing half of the resolver (mixed into `resolve.Project`)."""

    instances: dict[tuple, Value | None]
    ids: dict[str, int]

    if TYPE_CHECKING:  # what resolve.Project provides

        def view(self, path: str) -> FileView: ...
        def name(self, view: FileView, scope: str, name: str, line: int = 0) -> Value | None: ...
        def attribute(self, value: Value | None, attr: str) -> Value | None: ...
        def member(self, value: Value, attr: str) -> Value | None: ...
        def enclosing_class(self, view: FileView, scope: str) -> str: ...
        def type_named(self, view: FileView, scope: str, text: str) -> Value | None: ...
        def passed(self, view: FileView, scope: str, text: str) -> Value | None: ...

    def instance(self, view: FileView, scope: str, type_name: str, line: int = 0) -> Value | None:
        """What a binding's stored type holds (see pybinds.py): an instance of the class it
        names, what a call gives, a copy, an element; EXTERNAL for a type from outside. A
        copy is read as on its `line` (`other = cb` where `isinstance` has narrowed cb)."""
        line = line if type_name[:1] == "=" else 0
        slot = (view.path, scope, type_name, self.bound_key, line)
        if slot in self.instances:  # memoized; None while in progress (`self.x = self.x.y()`)
            return self.instances[slot]
        self.instances[slot] = None
        found = self._typed(view, scope, type_name, line)
        if found is not None and found[0] in ("super", "local"):
            found = None
        self.instances[slot] = found
        return found

    def _typed(self, view: FileView, scope: str, text: str, line: int = 0) -> Value | None:
        if text[:1] == ":":  # declared
            text = text[1:]
        if (view.path, text) in self.bound:  # a type variable a generic's use has filled in
            return self.bound[(view.path, text)]
        head = text[:1]
        parts = members(text) if "|" in text and head not in "~@&^%><" else (text,)
        if len(parts) > 1:  # `A|=b`: a conditional's branches; `~`, `@`, `&` cover the whole
            return union([self.instance(view, scope, part) for part in parts])
        if head == "~":  # a name for types: instantiated, the union in its own file
            return ("alias", view.path, text[1:])
        if head == "=":
            return self.evaluate(view, scope, text[1:], line, keep_last=True)
        if head in ("@", "&"):  # an element of what iterating gives, a part of a tuple
            source, sep, index = text[1:].rpartition("#")
            source = source if sep and index.isdigit() else text[1:]
            found = self.instance(view, scope, source)
            if head == "@" and found == EXTERNAL and view.family == "javascript":
                return None  # `for (x of Array.from(s))`: the platform's, of elements unknown
            found = self.iterate(found) if head == "@" else found
            return self.item(found, int(index)) if sep and index.isdigit() else found
        if head == "^":
            return self.fixture(view, text[1:])
        if head == "<":  # TypeScript: a callback's parameter, as its callee types it
            return self.passed(view, scope, text[1:])
        if head == ">":  # TypeScript: a function whose call gives the type (tsbinds.py)
            return ("ret", "", self.instance(view, scope, text[1:]))  # type: ignore[return-value]
        if head == "%":
            return self.entered(self.instance(view, scope, text[1:]))
        shaped = generic(text)
        if shaped is not None:
            return self._generic(view, scope, *shaped)
        if DOTTED.fullmatch(text):
            own = self.type_named(view, scope, text) if view.family == "javascript" else None
            return own or self.called(self.chain(view, scope, text.split("."), keep_last=True))
        return self.called(self.evaluate(view, scope, text, keep_last=True))

    def _generic(
        self, view: FileView, scope: str, head: str, args: tuple[str, ...]
    ) -> Value | None:
        own = self.chain(view, scope, head.split("."), keep_last=True)
        named = self.type_named(view, scope, head) if view.family == "javascript" else None
        own = ("class", named[1], named[2]) if named is not None else own  # an interface first
        if own is not None and own[0] == "class":  # a project generic: `Registry[Foo]`
            return self.generic_instance(view, scope, own, args)
        base = head.rsplit(".", 1)[-1]

        def arg(at: int) -> Value | None:
            return (
                self.instance(view, scope, args[at]) if len(args) > at and args[at] != "?" else None
            )

        if base in SEQUENCES:
            return ("seq", "", arg(0))  # type: ignore[return-value]
        if base in MAPPINGS:
            return ("map", "", (arg(0), arg(1)))  # type: ignore[return-value]
        if base in ("tuple", "Tuple"):
            if len(args) == 1:
                return ("seq", "", arg(0))  # type: ignore[return-value]
            return ("tuple", "", tuple(arg(i) for i in range(len(args))))  # type: ignore[return-value]
        if base in ("type", "Type") and args:
            found = self.chain(view, scope, args[0].split("."), keep_last=True)
            return found if found is not None and found[0] == "class" else None
        if view.family == "javascript":  # `PartialObserver<T>`, an alias: as its head says
            return self.instance(view, scope, head)
        return EXTERNAL if own == EXTERNAL else None

    def chain(
        self, view: FileView, scope: str, parts: list[str], line: int = 0, keep_last: bool = False
    ) -> Value | None:
        head = parts[0]
        if head in ("self", "this", "cls", "super()"):
            owner = self.enclosing_class(view, scope)
            what = {"cls": "class", "super()": "super"}.get(head, "inst")
            found: Value | None = (what, view.path, owner) if owner else None
        else:
            found = self.name(view, scope, head, line)
        last = len(parts) - 1
        for at, attr in enumerate(parts[1:], 1):
            found = self.read(self.attribute(found, attr), at < last or not keep_last)
        return found

    def read(self, found: Value | None, used: bool) -> Value | None:
        """An attribute read: a property's value is what it returns (`resp.request.url`); a
        method's only when the chain goes on (`b = a.f` copies f itself)."""
        if found is not None and found[0] == "def":
            if used or found[2] in self.view(found[1]).properties:
                return self.returned(found)
        return found

    def evaluate(
        self, view: FileView, scope: str, text: str, line: int = 0, keep_last: bool = False
    ) -> Value | None:
        """What an expression written as a chain holds: `a.b(x)[0].c`, `super().f()`."""
        chain = steps(text)
        if not chain:
            return None
        head = chain[0][1]
        if head == "super" and len(chain) > 1 and chain[1][0] == "call":
            owner = self.enclosing_class(view, scope)
            found: Value | None = ("super", view.path, owner) if owner else None
            chain = chain[1:]
        elif head in ("self", "this", "cls"):
            found = self.chain(view, scope, [head])
        elif head == "cast" and len(chain) > 1 and chain[1][0] == "call":  # typing.cast(T, x)
            found = self.instance(view, scope, type_expr(split_top(chain[1][1], ",")[0]))
            chain = chain[1:]
        elif head in PAIRS_ELEMENTS and len(chain) > 1 and chain[1][0] == "call":
            found = self._paired(view, scope, head, chain[1][1], line)
            chain = chain[1:]
        elif head in KEEPS_ELEMENTS and len(chain) > 1 and chain[1][0] == "call":
            inner = self.evaluate(view, scope, chain[1][1], line)  # `list(routes)`, `sorted(x)`
            found = ("seq", "", self.iterate(inner)) if inner is not None else None  # type: ignore[assignment]
            chain = chain[1:]
        else:
            found = self.name(view, scope, head, line)
        last = len(chain) - 1
        for at, (kind, arg) in enumerate(chain[1:], 1):
            if kind == "attr":
                more = at < last and chain[at + 1][0] == "call"
                found = self.attribute(found, arg)
                found = found if more else self.read(found, at < last or not keep_last)
            elif kind == "call":
                solved = self.solved(view, scope, found, arg, line) if _plain(found) else ()
                found = self.called(found + (solved,) if solved else found)  # type: ignore[arg-type]
            else:
                found = self.element(found, arg)
            if found is None:
                return None
        return found

    def _paired(self, view: FileView, scope: str, head: str, args: str, line: int) -> Value:
        """`enumerate(xs)`: (int, x) pairs; `zip(a, b)`: (an a, a b) tuples."""
        parts = [p for p in split_top(args, ",") if p and "=" not in p]
        items = [self.iterate(self.evaluate(view, scope, p, line)) for p in parts]
        if head == "enumerate":
            items = [EXTERNAL, *items[:1]]
        return ("seq", "", ("tuple", "", tuple(items)))  # type: ignore[return-value]

    # --- what values give -------------------------------------------------------------------
    def called(self, value: Value | None) -> Value | None:
        if value is None:
            return None
        what = value[0]
        if what == "class":
            return ("inst", value[1], value[2])
        if what == "def":
            return self.returned(value)
        if what == "ret":
            return value[2]  # type: ignore[return-value]
        if what == "alias":  # `Shape = Union[A, B]`; `x: Shape`
            return self.instance(self.view(value[1]), "", value[2])
        if what == "union":
            return union([self.called(v) for v in value[2]])  # type: ignore[union-attr]
        if what == "inst":
            found = self.member(value, "__call__")
            return self.returned(found) if found is not None and found[0] == "def" else None
        return EXTERNAL if what == "ext" else None

    def returned(self, function: Value) -> Value | None:
        """What a call of a project function gives: its return annotation, else what its
        `return`s hand back (a generator of what it yields)."""
        if len(function) > 3:  # a generic's method, or a function solved from its call
            with self.binding(function[3]):  # type: ignore[misc]
                return self.returned(function[:3])  # type: ignore[arg-type]
        view = self.view(function[1])
        qualified = function[2]
        annotation = view.returns.get(qualified)
        if annotation in ("Self", "typing.Self", "typing_extensions.Self", "this"):
            owner = self.enclosing_class(view, qualified)
            return ("inst", view.path, owner) if owner else None
        if annotation:
            return self.instance(view, qualified.rpartition(".")[0], annotation)
        handed = view.handed()
        if qualified in handed.yields:
            return ("seq", "", self._handed(view, qualified, handed.yields))  # type: ignore[return-value]
        return self._handed(view, qualified, handed.gives)

    def entered(self, value: Value | None) -> Value | None:
        """What `with value as x` gives x: its class's `__enter__`'s value, else itself."""
        if value is None or value[0] != "inst":
            return value
        for method in ("__enter__", "__aenter__"):
            found = self.member(value, method)
            if found is not None and found[0] == "def":
                return self.returned(found) or value
        return value

    def _handed(self, view: FileView, qualified: str, table: dict[str, list[str]]) -> Value | None:
        return union([self.instance(view, qualified, t) for t in table.get(qualified, ())])

    def fixture(self, view: FileView, name: str) -> Value | None:
        """The value of the pytest fixture `name` as a test sees it: defined in the test's
        file or a `conftest.py` beside it or above; what it yields, else what it returns."""
        folder = posixpath.dirname(view.path)
        places = [view.path]
        while True:
            places.append(posixpath.join(folder, "conftest.py") if folder else "conftest.py")
            if not folder:
                break
            folder = posixpath.dirname(folder)
        for path in places:
            if path not in self.ids:
                continue
            here = self.view(path)
            qualified = here.fixtures.get(name)
            if qualified is None:
                continue
            yields = here.handed().yields
            if qualified in yields and qualified not in here.returns:
                return self._handed(here, qualified, yields)
            found = self.returned(("def", path, qualified))
            return self.iterate(found) if found is not None and found[0] == "seq" else found
        return None

    # --- containers -------------------------------------------------------------------------
    def element(self, value: Value | None, index: str) -> Value | None:
        """`value[index]`."""
        if value is None:
            return None
        what: Any = value[0]
        if what == "seq":
            return value[2]  # type: ignore[return-value]
        if what == "map":
            return value[2][1]  # type: ignore[index]
        if what == "tuple":
            items = value[2]
            if index.isdigit() and int(index) < len(items):
                return items[int(index)]  # type: ignore[return-value]
            return union(list(items))  # type: ignore[arg-type]
        if what == "union":
            return union([self.element(v, index) for v in value[2]])  # type: ignore[union-attr]
        if what == "inst":
            return self.called(self.member(value, "__getitem__"))
        return EXTERNAL if what == "ext" else None

    def iterate(self, value: Value | None) -> Value | None:
        """What `for x in value` gives x."""
        if value is None:
            return None
        what = value[0]
        if what == "seq":
            return value[2]  # type: ignore[return-value]
        if what == "map":
            return value[2][0]  # type: ignore[index]
        if what == "tuple":
            return union(list(value[2]))  # type: ignore[arg-type]
        if what == "union":
            return union([self.iterate(v) for v in value[2]])  # type: ignore[union-attr]
        if what == "inst":
            found = self.called(self.member(value, "__iter__"))
            return found[2] if found is not None and found[0] == "seq" else None  # type: ignore[return-value]
        return EXTERNAL if what == "ext" else None

    @staticmethod
    def item(value: Value | None, index: int) -> Value | None:
        """Part `index` of a tuple (`for k, v in d.items()`)."""
        if value is not None and value[0] == "seq":
            return value[2]  # type: ignore[return-value]
        if value is None or value[0] != "tuple":
            return EXTERNAL if value == EXTERNAL else None
        items = value[2]
        return items[index] if index < len(items) else None  # type: ignore[return-value]

    def contained(self, value: Value, attr: str) -> Value | None:
        """A builtin container's method: what calling it gives (`d.get(k)`, `d.items()`)."""
        what = value[0]
        detail: Any = value[2]
        if what == "seq":
            gives = {"copy": value, "__getitem__": detail}.get(attr)
            gives = detail if attr in _JS_ELEMENT else gives
            if attr in _JS_KEEPS:  # `xs.slice()`, `xs.filter(f)`: the same elements
                gives = value
            elif attr in _JS_MAPPED:
                gives = ("seq", "", None)
            elif attr in FOLDS:  # what the callback gives
                return None  # not external: the callback's, which nobody typed here
        elif what == "map":
            key, val = detail
            gives = {
                "get": val,
                "pop": val,
                "setdefault": val,
                "__getitem__": val,
                "copy": value,
                "values": ("seq", "", val),
                "keys": ("seq", "", key),
                "items": ("seq", "", ("tuple", "", (key, val))),
            }.get(attr)
        else:
            return EXTERNAL
        if attr in _GIVING and gives is None:
            return None  # `d.get(k)` on a dict of what nobody knows: unknown, not external
        return ("ret", "", gives) if gives is not None else EXTERNAL  # type: ignore[return-value]
