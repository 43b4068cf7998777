"""What one file binds, as the resolver reads it from the index: its imports (module-wide and
inside functions), definitions, typed bindings, locals, bases; and the tables of names no
project defines (builtins, JavaScript globals)."""

from __future__ import annotations

import builtins
import marshal
import posixpath
import re
import sqlite3
from collections import OrderedDict
from dataclasses import dataclass, field, fields

from core.codemap.langs import language_family

Value = tuple[str, str, str]  # (what, path, qualified): module|ns|class|inst|super|def|ext|local
EXTERNAL: Value = ("ext", "", "")
LOCAL: Value = ("local", "", "")  # a name its function binds, of a type not known
FAMILIES = frozenset({"python", "javascript"})
DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
CONSTRUCTED = re.compile(r"([A-Za-z_$][\w$.]*)\(.*\)")  # `Foo(x)`; JS `new Foo(x)` → `newFoo(x)`
JS_NEW = re.compile(r"^new(?=[A-Z_$])")
LITERAL_START = tuple("\"'[{(0123456789`") + ("f'", 'f"', "b'", 'b"', "r'", 'r"')
JS_GLOBALS = frozenset(
    "console Math JSON Object Array Promise String Number Boolean Symbol Reflect Date RegExp "
    "Error Map Set WeakMap process window document globalThis require module exports Buffer "
    "Intl URL fetch setTimeout clearTimeout setInterval".split()
)
# More of the platform's names (ECMAScript, the web, Node's globals), globals only in a
# TypeScript module, which imports what it does not define: in JavaScript `const { Worker } =
# require("./worker")` binds one without an import the index knows
TS_GLOBALS = JS_GLOBALS | frozenset(
    "TextEncoder TextDecoder Response Request Headers AbortController AbortSignal "
    "ReadableStream WritableStream TransformStream Blob File FormData URLSearchParams "
    "WeakSet WeakRef FinalizationRegistry Proxy BigInt Function ArrayBuffer SharedArrayBuffer "
    "DataView Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array Float32Array "
    "Float64Array BigInt64Array BigUint64Array TypeError RangeError SyntaxError ReferenceError "
    "AggregateError EventTarget Event CustomEvent MessageChannel BroadcastChannel WebSocket "
    "Worker MutationObserver ResizeObserver IntersectionObserver structuredClone "
    "queueMicrotask clearInterval requestAnimationFrame cancelAnimationFrame crypto "
    "performance navigator localStorage sessionStorage location history atob btoa "
    "encodeURIComponent decodeURIComponent encodeURI decodeURI parseInt parseFloat isNaN "
    "setImmediate clearImmediate".split()
)
PY_BUILTINS = frozenset(dir(builtins))
_PY_TYPES = (str, bytes, list, dict, set, tuple, int, float, object)
_JS_METHODS = (
    "toString valueOf hasOwnProperty push pop shift unshift slice splice map filter reduce "
    "forEach find findIndex some every includes indexOf join concat keys values entries get set "
    "has delete add clear then catch finally split replace trim startsWith endsWith toLowerCase "
    "toUpperCase charAt substring apply call bind sort reverse flat flatMap fill at match test "
    "exec toFixed padStart padEnd repeat assign freeze"
)
BUILTIN_METHODS = {  # on an untyped receiver these are almost always the builtin types' own
    "python": frozenset(n for t in _PY_TYPES for n in dir(t) if not n.startswith("__")),
    "javascript": frozenset(_JS_METHODS.split()),
}
JS_EXTS = (".ts", ".tsx", ".js", ".mjs", ".cjs", ".jsx", ".mts", ".cts", ".d.ts")
CLASSY = frozenset({"class", "interface", "struct", "enum", "trait"})


@dataclass
class Handed:
    """The rows of a file only inference reads."""

    gives: dict[str, list[str]] = field(default_factory=dict)  # function → what it returns
    yields: dict[str, list[str]] = field(default_factory=dict)  # function → what it yields
    blocks: dict[tuple[str, str], dict[int, int]] = field(default_factory=dict)
    # (function, name) → {line of a binding: last line of its block (0: the function's)}


_LATER = ("gives", "yields", "block")
SQL_BINDS = frozenset((*_LATER, "all"))  # kinds read from the binds table (rename.py: all)
SQL_BINDS_JS = SQL_BINDS | {"attr"}  # tsfamily.py: members declared by interfaces and fields


def _load_handed(db: sqlite3.Connection | None, fid: int) -> Handed:
    out = Handed()
    if db is None:
        return out
    rows = db.execute(
        "SELECT kind, scope, name, type, line FROM binds WHERE file_id=? AND kind IN (?,?,?)",
        (fid, *_LATER),
    )
    for kind, scope, name, type_name, line in rows:
        if kind == "block":
            out.blocks.setdefault((scope, name), {})[line or 0] = int(type_name)
        else:
            (out.gives if kind == "gives" else out.yields).setdefault(scope, []).append(type_name)
    return out


@dataclass
class FileView:
    """What one file binds, loaded once per question."""

    path: str
    family: str
    imports: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # local → key, orig
    stars: list[str] = field(default_factory=list)
    defs: dict[str, tuple[str, int]] = field(default_factory=dict)  # qualified → kind, line
    binds: dict[tuple[str, str], list[str]] = field(default_factory=dict)  # (scope, name)
    bind_lines: dict[tuple[str, str], list[int]] = field(default_factory=dict)  # the same order
    attrs: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)
    # (class, name) → [(scope of the assignment, type)]
    bases: dict[str, list[str]] = field(default_factory=dict)
    all: set[str] | None = None
    classes: list[tuple[int, int, str]] = field(default_factory=list)  # (line, end, qualified)
    locals: dict[tuple[str, str], list[tuple[int, int]]] = field(default_factory=dict)
    # (function, name) → line spans it is bound in ((0, 0): the whole function)
    globals: set[tuple[str, str]] = field(default_factory=set)  # `global`/`nonlocal` names
    scoped: dict[tuple[str, str], list[tuple[str, str]]] = field(default_factory=dict)
    returns: dict[str, str] = field(default_factory=dict)  # function → its return annotation
    narrows: dict[tuple[str, str], list[tuple[int, int, str]]] = field(default_factory=dict)
    # (function, name) → (first, last, type): lines where `isinstance` has told its type
    fixtures: dict[str, str] = field(default_factory=dict)  # pytest fixture → its function
    properties: set[str] = field(default_factory=set)  # methods decorated as properties
    callbacks: dict[tuple[str, str], str] = field(default_factory=dict)
    # TypeScript (function, "i.j") → the type parameter j of its parameter i's function gets
    # (function or class, local) → (key, orig): imports inside a function or class body

    db: sqlite3.Connection | None = None  # where `handed` reads from, when first asked
    fid: int = -1
    _handed: Handed | None = None

    def handed(self) -> Handed:
        """What the file's functions return and yield, and its bindings' blocks: read on
        first use (most questions never ask)."""
        if self._handed is None:
            self._handed = _load_handed(self.db, self.fid)
        return self._handed

    def bound_in(self, scope: str, name: str, line: int) -> bool:
        """Whether `name` is a local of function `scope` (at `line`, for a lambda's or a
        comprehension's own names)."""
        if (scope, name) in self.globals:
            return False
        spans = self.locals.get((scope, name))
        return bool(spans) and any(a == 0 or a <= line <= b for a, b in spans)


def python_roots(paths: list[str]) -> list[str]:
    """Folders that hold top-level modules: above the outermost package (`__init__.py`) of
    every Python file, or the file's own folder when it is in no package; always the root."""
    inits = {posixpath.dirname(p) for p in paths if p.endswith("/__init__.py")}
    if any(p == "__init__.py" for p in paths):
        inits.add("")
    roots = {""}
    for path in paths:
        if not path.endswith((".py", ".pyi")):
            continue
        folder = posixpath.dirname(path)
        while folder and folder in inits:
            folder = posixpath.dirname(folder)
        roots.add(folder)
    return sorted(roots, key=len)


class ViewCache:
    """What questions share between them (kept by the index): the file table, the Python roots,
    module lookups and the most recent FileViews. A write drops what it changed."""

    SIZE = 4096  # file views kept

    def __init__(self) -> None:
        self.files: tuple[dict[str, int], list[str]] | None = None  # (path → id, py roots)
        self.modules: dict[tuple[str, str], str | None] = {}
        self.views: OrderedDict[str, FileView] = OrderedDict()

    def changed(self, paths: list[str]) -> None:
        """Files were written or removed: their views and the file table are stale."""
        self.files = None
        self.modules = {}
        for path in paths:
            self.views.pop(path, None)

    def keep(self, view: FileView) -> None:
        self.views[view.path] = view
        if len(self.views) > self.SIZE:
            self.views.popitem(last=False)


_UNPACKED = frozenset({"path", "family", "db", "fid", "_handed"})
_PACKED = tuple(f.name for f in fields(FileView) if f.name not in _UNPACKED)  # what a file binds


def pack_view(path: str, symbols: list, binds: list) -> bytes:
    """What `load_view` gives, from a file's parsed rows (symbols as the `symbols` table
    holds them, binds as `binds`), in one blob written beside them: a question then reads
    one row per file instead of every symbol and binding."""
    view = FileView(path, language_family(path))
    _fill(
        view,
        [(s[0], s[1], s[2], s[3], s[4], s[7], s[8]) for s in symbols],
        [b for b in binds if b[0] not in _LATER],
    )
    return marshal.dumps(tuple(_frozen(getattr(view, name)) for name in _PACKED), 4)


def _frozen(value: object) -> object:
    """Lists as tuples: a view is only read once loaded, and tuples of strings and numbers
    (and the dicts holding them) leave the garbage collector's rounds, which thousands of
    cached views made long (gen-2 pauses of 60-150 ms in an impact walk)."""
    if isinstance(value, list):
        return tuple(value)
    if isinstance(value, dict):
        return {k: tuple(v) if isinstance(v, list) else v for k, v in value.items()}
    return value


def load_view(db: sqlite3.Connection, path: str, fid: int) -> FileView:
    """One file's bindings as the resolver reads them: its packed view in the index."""
    row = db.execute("SELECT data FROM views WHERE file_id=?", (fid,)).fetchone()
    packed = dict(zip(_PACKED, marshal.loads(row[0]), strict=True)) if row else {}
    return FileView(path, language_family(path), db=db, fid=fid, **packed)


def _fill(view: FileView, symbols: list, binds: list) -> None:
    for name, kind, line, end, scope, module, orig in symbols:
        if kind == "import" and scope:
            view.scoped.setdefault((scope, name), []).append((module or "", orig or ""))
        elif kind == "import":
            _add_import(view, name, module or "", orig or "")
        elif kind != "export":
            qualified = f"{scope}.{name}" if scope else name
            if kind in CLASSY and view.family == "javascript":  # `interface X` and
                view.defs[qualified] = (kind, line)  # `const X = …` (zod 4): the class
            else:
                view.defs.setdefault(qualified, (kind, line))
            if kind in CLASSY:
                view.classes.append((line, end, qualified))
    _fill_vars(view, [b[1:] for b in binds if b[0] == "var"])
    attrs: list[tuple[str, str, str]] = []
    for kind, scope, name, type_name, _ in binds:
        if kind == "var":
            continue
        if kind == "attr":
            attrs.append((scope, name, type_name))
        elif kind == "base":
            view.bases.setdefault(scope, []).append(type_name)
        elif kind == "all":
            view.all = (view.all or set()) | {name}
        elif kind == "global":
            view.globals.add((scope, name))
        elif kind == "returns":
            view.returns.setdefault(scope, type_name)
        elif kind == "alias":  # TypeScript `type State = A | B`: what naming it gives
            view.returns.setdefault(name, type_name)
        elif kind == "param":  # TypeScript: what a callback passed to `scope` gets
            view.callbacks.setdefault((scope, name), type_name)
        elif kind == "fixture":
            view.fixtures.setdefault(name, scope)
        elif kind == "property":
            view.properties.add(scope)
        elif kind == "narrow":
            lines, _, typed = type_name.partition(":")
            first, _, last = lines.partition("-")
            view.narrows.setdefault((scope, name), []).append((int(first), int(last), typed))
        elif kind in ("local", "span"):
            first, _, last = type_name.partition("-")
            span = (int(first), int(last)) if last else (0, 0)
            view.locals.setdefault((scope, name), []).append(span)
    for scope, name, type_name in attrs:
        kind = view.defs.get(scope, ("", 0))[0]
        owner = scope if kind in CLASSY else enclosing_class(view, scope)
        view.attrs.setdefault((owner, name), []).append((scope, type_name))


def _fill_vars(view: FileView, rows: list) -> None:
    """The typed bindings of names (the most rows a view has), in one tight loop."""
    binds, lines = view.binds, view.bind_lines
    for scope, name, type_name, line in rows:
        key = (scope, name)
        found = binds.get(key)
        if found is None:
            binds[key] = [type_name]
            lines[key] = [line or 0]
        else:
            found.append(type_name)
            lines[key].append(line or 0)


def _add_import(view: FileView, local: str, key: str, orig: str) -> None:
    if local == "*":
        view.stars.append(key)
    elif local:
        view.imports.setdefault(local, []).append((key, orig))
        if view.family == "python" and "." in local and not orig:  # import a.b binds a
            head = local.split(".", 1)[0]
            view.imports.setdefault(head, []).append((key.split("/", 1)[0], ""))


def enclosing_class(view: FileView, scope: str) -> str:
    parts = scope.split(".")
    for i in range(len(parts) - 1, 0, -1):
        qualified = ".".join(parts[:i])
        if view.defs.get(qualified, ("", 0))[0] in CLASSY:
            return qualified
    return ""
