"""TypeScript's half of receiver typing (mixed into `resolve.Project`): a type written in an
annotation names a class or an interface before a value of the same name (`interface
ZodString` and `const ZodString = …` in zod 4), and a member the compiler would know of is
looked for where TypeScript declares it (fields, an interface's signatures: `tsbinds.py`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.codemap.fileview import CLASSY, EXTERNAL, FileView, Value

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
    def missing_member(path: str) -> Value | None:
        """What a member defined nowhere along a complete hierarchy means: in TypeScript (the
        compiler knows every member) no definition of the project, whatever its name; a
        field or signature of a type not known was met before (unknown, not this)."""
        return EXTERNAL if path.endswith(TS_EXTS) else None
