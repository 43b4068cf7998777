"""Type parameters put back: what `T` is where a generic is used with arguments (#30).

A project class is generic when its bases name type variables: `Generic[T]`, `Protocol[T]`,
or another generic with a variable for an argument (`class Pair(Base[K, V])`). An instance
of it written with arguments (`box: Box[Foo]`) is the 4-tuple ("inst", path, class, bound):
`bound` pairs each type variable, keyed by the file that names it, with the value it stands
for. A member found on it (or on a base a class fills in: `class Child(Base[Foo])`) is read
with those pairs in force, so `def get(self) -> T` gives a Foo, `self.item = item` (`item:
T`) holds one and `__iter__(self) -> Iterator[T]` yields them. A function whose annotations
name a variable of its own (`def first(xs: Sequence[T]) -> T`) is solved from the call's
arguments: a parameter annotated `T` takes the argument's value, one annotated as a
container of T (`list[T]`, `Iterable[T]`) an element of it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from core.codemap.fileview import FileView, Value
from core.codemap.typeexpr import generic, split_top, type_expr

Bound = tuple[tuple[tuple[str, str], Value], ...]  # ((file, variable), value) pairs
_DECLARERS = frozenset({"Generic", "Protocol"})
_DEPTH = 8  # bases walked from a class to the one that defines a member
_CONTAINERS = frozenset(
    "list List Sequence MutableSequence Iterable Iterator Collection set Set frozenset "
    "FrozenSet AbstractSet tuple Tuple".split()
)


class Generics:
    """The type-parameter half of inference (mixed into `resolve.Project` with Inference)."""

    bound: dict[tuple[str, str], Value]
    bound_key: Bound
    params_memo: dict[tuple[str, str], tuple[str, ...]]

    if TYPE_CHECKING:  # what Inference and resolve.Project provide

        def view(self, path: str) -> FileView: ...
        def name(self, view: FileView, scope: str, name: str, line: int = 0) -> Value | None: ...
        def chain(
            self, view: FileView, scope: str, parts: list[str], line: int = 0, keep_last=False
        ) -> Value | None: ...
        def instance(self, view: FileView, scope: str, type_name: str) -> Value | None: ...
        def evaluate(
            self, view: FileView, scope: str, text: str, line: int = 0, keep_last=False
        ) -> Value | None: ...
        def iterate(self, value: Value | None) -> Value | None: ...

    @contextmanager
    def binding(self, pairs: Bound) -> Iterator[None]:
        """The pairs in force (over those already in force) while the block runs."""
        saved, saved_key = self.bound, self.bound_key
        if pairs:
            self.bound = {**saved, **dict(pairs)}
            self.bound_key = tuple(sorted(self.bound.items(), key=lambda p: p[0]))
        try:
            yield
        finally:
            self.bound, self.bound_key = saved, saved_key

    def params(self, path: str, cls: str) -> tuple[str, ...]:
        """The type variables of a project class, in order ('' when it has none)."""
        slot = (path, cls)
        if slot not in self.params_memo:
            self.params_memo[slot] = ()
            self.params_memo[slot] = self._params(self.view(path), cls)
        return self.params_memo[slot]

    def _params(self, view: FileView, cls: str) -> tuple[str, ...]:
        found: list[str] = []
        for base in view.bases.get(cls, []):
            shaped = generic(base)
            if shaped is None:
                continue
            head, args = shaped
            names = [a for a in args if a.isidentifier() and self.is_variable(view, a)]
            if head.rsplit(".", 1)[-1] in _DECLARERS:
                return tuple(names)
            found += [n for n in names if n not in found]
        return tuple(found)

    def is_variable(self, view: FileView, name: str) -> bool:
        """Whether `name` in the file is a type variable: it names no class and nothing from
        outside (`T = TypeVar("T")` is typed nothing, a bound one stands for its bound)."""
        found = self.name(view, "", name)
        return found is None or found[0] == "alias"

    def generic_instance(
        self, view: FileView, scope: str, own: Value, args: tuple[str, ...]
    ) -> Value:
        """`Box[Foo]` written in `view`: an instance of Box with T bound to a Foo."""
        pairs = []
        for param, arg in zip(self.params(own[1], own[2]), args, strict=False):
            value = self.instance(view, scope, arg) if arg != "?" else None
            if value is not None:
                pairs.append(((own[1], param), value))
        if not pairs:
            return ("inst", own[1], own[2])
        return ("inst", own[1], own[2], tuple(pairs))  # type: ignore[return-value]

    def bound_along(self, value: Value, path: str, cls: str) -> Bound:
        """The pairs in force for a member of class `cls` (in `path`) found on `value`: the
        instance's own when cls is its class, else what the bases on the way fill in."""
        own: Bound = value[3] if len(value) > 3 else ()  # type: ignore[misc]
        start = (value[1], value[2])
        if start == (path, cls) or not self.params(path, cls):
            return own if start == (path, cls) else ()
        paths = [(start, own)]
        seen = {start}
        for _ in range(_DEPTH):
            later = []
            for (here_path, here_cls), pairs in paths:
                for there, filled in self._bases_filled(here_path, here_cls, pairs):
                    if there == (path, cls):
                        return filled
                    if there not in seen:
                        seen.add(there)
                        later.append((there, filled))
            if not later:
                return ()
            paths = later
        return ()

    def _bases_filled(
        self, path: str, cls: str, pairs: Bound
    ) -> list[tuple[tuple[str, str], Bound]]:
        view = self.view(path)
        out = []
        with self.binding(pairs):
            for base in view.bases.get(cls, []):
                shaped = generic(base)
                head = shaped[0] if shaped else base
                found = self.chain(view, "", head.split("."))
                if found is None or found[0] != "class":
                    continue
                made = self.generic_instance(view, "", found, shaped[1]) if shaped else found
                filled: Bound = made[3] if len(made) > 3 else ()  # type: ignore[misc]
                out.append(((found[1], found[2]), filled))
        return out

    def solved(self, view: FileView, scope: str, function: Value, args: str, line: int) -> Bound:
        """The type variables of a function's own annotations, from a call's arguments."""
        there = self.view(function[1])
        qualified = function[2]
        returned = there.returns.get(qualified, "")
        if not returned or len(function) > 3:
            return ()
        wanted = {n for n in _names(returned) if self.is_variable(there, n)}
        if not wanted:
            return ()
        params = self.signature(function)
        given = [a for a in split_top(args, ",") if a.strip()]
        pairs: list[tuple[tuple[str, str], Value]] = []
        for at, arg in enumerate(given):
            name, eq, rest = arg.partition("=")
            param = name.strip() if eq and name.strip().isidentifier() else ""
            if not param:
                if at >= len(params) or arg.startswith("*"):
                    continue
                param, rest = params[at], arg
            declared = [t for t in there.binds.get((qualified, param), []) if t[:1] == ":"]
            if declared:
                pair = self._matched(there, declared[0][1:], wanted, view, scope, rest, line)
                if pair is not None:
                    pairs.append(pair)
        return tuple(pairs)

    def _matched(
        self, there: FileView, annotation: str, wanted: set, view: FileView, scope, arg, line
    ) -> tuple[tuple[str, str], Value] | None:
        if annotation in wanted:
            value = self.evaluate(view, scope, arg.strip(), line)
            return ((there.path, annotation), value) if value is not None else None
        shaped = generic(annotation)
        if shaped is None or shaped[0].rsplit(".", 1)[-1] not in _CONTAINERS:
            return None
        inner = shaped[1][0] if shaped[1] else ""
        if inner not in wanted:
            return None
        value = self.iterate(self.evaluate(view, scope, arg.strip(), line))
        return ((there.path, inner), value) if value is not None else None

    def signature(self, function: Value) -> list[str]:
        """The names of a function's parameters in order, `self` and `cls` left out."""
        view = self.view(function[1])
        scope, _, name = function[2].rpartition(".")
        row = None
        if view.db is not None:
            row = view.db.execute(
                "SELECT signature FROM symbols WHERE file_id=? AND name=? AND scope=? "
                "AND kind != 'import'",
                (view.fid, name, scope),
            ).fetchone()
        text = row[0] if row and row[0] else ""
        start = text.find("(")
        inner = text[start + 1 : text.rfind(")")] if start >= 0 else ""
        names = []
        for part in split_top(inner, ","):
            word = part.split(":", 1)[0].split("=", 1)[0].strip()
            if word.isidentifier() and word not in ("self", "cls"):
                names.append(word)
        return names


def _names(annotation: str) -> list[str]:
    """The plain names inside a normal-form annotation: 'Iterator[T]|None' → Iterator, T."""
    normal = type_expr(annotation) or annotation
    out = []
    word = ""
    for char in normal + " ":
        if char.isalnum() or char in "_.":
            word += char
        else:
            if word and "." not in word:
                out.append(word)
            word = ""
    return out
