"""TypeScript's half of receiver typing (mixed into `resolve.Project`): a type written in an
annotation names a class or an interface before a value of the same name (`interface
ZodString` and `const ZodString = …` in zod 4), and a member the compiler would know of is
looked for where TypeScript declares it (fields, an interface's signatures: `tsbinds.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.codemap.fileview import CLASSY, EXTERNAL, LOCAL, FileView, Value
from core.codemap.infer import union
from core.codemap.tsexpr import ELEMENT_CALLBACKS, FOLDS, PAIRWISE

TS_EXTS = (".ts", ".tsx", ".mts", ".cts")


class TypeScriptTypes:
    if TYPE_CHECKING:  # what resolve.Project provides

        def view(self, path: str) -> FileView: ...
        def evaluate(
            self, view: FileView, scope: str, text: str, line: int = 0, keep_last: bool = False
        ) -> Value | None: ...
        def member(self, value: Value, attr: str) -> Value | None: ...
        def instance(
            self, view: FileView, scope: str, type_name: str, line: int = 0
        ) -> Value | None: ...
        def chain(
            self,
            view: FileView,
            scope: str,
            parts: list[str],
            line: int = 0,
            keep_last: bool = False,
        ) -> Value | None: ...

    def type_named(self, view: FileView, scope: str, text: str) -> Value | None:
        """The class or interface a dotted type names in this file (`ZodString`), before a
        variable of the name; None when the file defines no such type."""
        head, _, rest = text.partition(".")
        if view.defs.get(head, ("", 0))[0] not in CLASSY:
            return None
        if not rest:
            return ("inst", view.path, head)
        inner = f"{head}.{rest}"
        if view.defs.get(inner, ("", 0))[0] in CLASSY:
            return ("inst", view.path, inner)
        return None

    @staticmethod
    def missing_member(path: str, declared: bool) -> Value | None:
        """A member TypeScript declares without a type the index can follow (a field of type
        `T`, an interface's property) is that member, of a type not known (LOCAL: its calls
        are no other class's method, what a chain reads from it is unknown); one defined
        nowhere along a complete hierarchy is no definition of the project (the compiler
        knows every member). Elsewhere, unknown."""
        if not path.endswith(TS_EXTS):
            return None
        return LOCAL if declared else EXTERNAL

    def passed(self, view: FileView, scope: str, text: str) -> Value | None:
        """`callee#i#j`: parameter j of a function passed as argument i of `callee` (`new C`:
        its constructor), as the callee's parameter type says (`tsbinds.py`)."""
        callee, i, j = text.rsplit("#", 2)
        receiver, _, method = callee.rpartition(".")
        if method in ELEMENT_CALLBACKS and i == "0" and receiver:
            held = self.evaluate(view, scope, receiver)
            if _contains(held):  # `items.forEach((item) => …)`: an element of items
                return _element_param(held, method, int(j))
        if "(" in callee:
            return None
        made = callee.startswith("new")
        parts = callee[3:].split(".") if made else callee.split(".")
        found = self.chain(view, scope, parts, keep_last=True)  # `bag.forEach`: the method
        if made:
            made_as = found if found is not None and found[0] == "class" else None
            found = self.member(made_as, "constructor") if made_as is not None else None
        if found is None or found[0] != "def":
            return None
        home = self.view(found[1])
        typed = home.callbacks.get((found[2], f"{i}.{j}"))
        return self.instance(home, found[2], typed) if typed else None


def _contains(held: Value | None) -> bool:
    """An array or a map, or a union of them (a project class's own `forEach` is its own)."""
    if held is None:
        return False
    if held[0] == "union":
        return all(_contains(v) for v in held[2])  # type: ignore[union-attr]
    return held[0] in ("seq", "map")


def _element_param(held: Value, method: str, j: int) -> Value | None:
    """Parameter `j` of the callback an array's or a map's `method` calls (index: unknown)."""
    if held[0] == "union":
        return union([_element_param(v, method, j) for v in held[2]])  # type: ignore[union-attr, arg-type]
    detail = held[2]
    if held[0] == "map":  # `m.forEach((value, key) => …)`
        if method != "forEach" or j > 1:
            return None
        return detail[1 - j]  # type: ignore[index, return-value]
    if method in FOLDS:
        return detail if j == 1 else None  # type: ignore[return-value]
    if method in PAIRWISE:
        return detail if j < 2 else None  # type: ignore[return-value]
    return detail if j == 0 else None  # type: ignore[return-value]
