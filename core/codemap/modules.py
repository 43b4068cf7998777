"""Which project file a module key names and what a module exports (Python, JS/TS).

A mixin of `resolve.Project`: it reads the project's file ids, Python roots and file views.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from core.codemap.fileview import EXTERNAL, JS_EXTS, FileView, Value


class Modules:
    """Module lookup and exports, followed through re-exports and star imports."""

    if TYPE_CHECKING:  # what resolve.Project provides
        ids: dict[str, int]
        py_roots: list[str]
        modules: dict[tuple[str, str], str | None]

        def view(self, path: str) -> FileView: ...
        def _defined(self, view: FileView, scope: str, qualified: str) -> Value | None: ...
        def agreed(self, view: FileView, bindings: list[tuple]) -> Value | None: ...

    def module(self, key: str, importer: FileView) -> str | None:
        """The project file a module key names, or None when it is not in the project."""
        slot = (importer.family, key)
        if slot not in self.modules:
            self.modules[slot] = self._find_module(key, importer.family)
        return self.modules[slot]

    def _find_module(self, key: str, family: str) -> str | None:
        if not key:
            return None
        if family == "python":
            for root in self.py_roots:
                base = posixpath.join(root, key) if root else key
                for candidate in (f"{base}.py", f"{base}/__init__.py", f"{base}.pyi"):
                    if candidate in self.ids:
                        return candidate
            return None
        if key.startswith(("/", ".")) or key.split("/", 1)[0] in self.ids or "/" in key:
            for candidate in [key + e for e in JS_EXTS] + [f"{key}/index{e}" for e in JS_EXTS]:
                if candidate in self.ids:
                    return candidate
        return None

    def export(self, path: str, name: str, seen: frozenset = frozenset()) -> Value | None:
        """What `name` means as an attribute of the module in `path`."""
        if (path, name) in seen:
            return None
        seen = seen | {(path, name)}
        view = self.view(path)
        if name in view.defs:
            return self._defined(view, "", name)
        if name in view.imports:
            return self.imported(view, name, seen)
        if view.family == "javascript" and ("", name) in view.binds:  # `export { a as b }`
            return self.agreed(view, [("", t) for t in view.binds[("", name)]])
        if view.family == "python" and path.endswith("/__init__.py"):
            sub = self.module(posixpath.dirname(path) + "/" + name, view)
            if sub is not None and sub != path:
                return ("module", sub, "")
        return self._from_stars(view, name, seen)

    def _from_stars(self, view: FileView, name: str, seen: frozenset) -> Value | None:
        for key in view.stars:
            target = self.module(key, view)
            if target is None:
                continue
            listed = self.view(target).all
            public = view.family != "python" or not name.startswith("_")
            if (listed is None and public) or (listed and name in listed):
                found = self.export(target, name, seen)
                if found is not None:
                    return found
        return None

    def imported(
        self,
        view: FileView,
        local: str,
        seen: frozenset = frozenset(),
        entries: list | None = None,
    ) -> Value | None:
        external = True
        for key, orig in view.imports[local] if entries is None else entries:
            target = self.module(key, view)
            if target is None:
                continue
            external = False
            if orig in ("", "*"):
                return ("module", target, "")
            if orig == "default" and view.family == "javascript":  # `import x from`: what
                found = self.export(target, "default", seen)  # `export default` names (TS)
                if found is not None:
                    return found
                continue
            found = self.export(target, orig, seen)
            if found is not None:
                return found
            if view.family == "python":
                sub = self.module(f"{key}/{orig}", view)
                if sub is not None:
                    return ("module", sub, "")
        return EXTERNAL if external else None
