"""TypeScript's half of receiver typing (mixed into `resolve.Project`): a type written in an
annotation names a class or an interface before a value of the same name (`interface
ZodString` and `const ZodString = …` in zod 4), and a member the compiler would know of is
looked for where TypeScript declares it (fields, an interface's signatures: `tsbinds.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.codemap.fileview import CLASSY, EXTERNAL, LOCAL, FileView, Value

TS_EXTS = (".ts", ".tsx", ".mts", ".cts")


class TypeScriptTypes:
    if TYPE_CHECKING:  # what resolve.Project provides

        def view(self, path: str) -> FileView: ...
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
        made = callee.startswith("new")
        found = self.chain(view, scope, callee[3:].split(".") if made else callee.split("."))
        if made:
            made_as = found if found is not None and found[0] == "class" else None
            found = self.member(made_as, "constructor") if made_as is not None else None
        if found is None or found[0] != "def":
            return None
        home = self.view(found[1])
        typed = home.callbacks.get((found[2], f"{i}.{j}"))
        return self.instance(home, found[2], typed) if typed else None
