"""Import statements → (local name, module key, original name) and module-key matching.

A module key is a project-relative path without extension ("pkg/geometry", "web/util"); an
import resolves to the files whose path (minus extension) is the key or ends with "/key".
Go imports name a package directory, so their keys carry a "dir:" prefix.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable
from functools import lru_cache

from tree_sitter import Node

Import = tuple[str, str, str]  # (local name, module key, original name)


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def _relative(path: str, mod: str) -> str:
    """`mod` (like './util' or '../x') relative to the importing file, as a project path."""
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(path), mod))
    while joined.startswith("../"):  # above the project root: keep what can still match
        joined = joined[3:]
    return joined


def _python(node: Node, path: str) -> list[Import]:
    out: list[Import] = []
    if node.type == "import_statement":
        for child in node.children_by_field_name("name"):
            if child.type == "aliased_import":
                dotted = _text(child.child_by_field_name("name"))
                out.append(
                    (_text(child.child_by_field_name("alias")), dotted.replace(".", "/"), "")
                )
            else:
                out.append((_text(child), _text(child).replace(".", "/"), ""))
        return out
    mod_node = node.child_by_field_name("module_name")
    mod = _text(mod_node)
    if mod.startswith("."):
        dots = len(mod) - len(mod.lstrip("."))
        rest = mod[dots:].replace(".", "/")
        base = posixpath.dirname(path)
        for _ in range(dots - 1):
            base = posixpath.dirname(base)
        key = posixpath.join(base, rest) if rest else base
    else:
        key = mod.replace(".", "/")
    for child in node.children_by_field_name("name"):
        if child.type == "aliased_import":
            orig = _text(child.child_by_field_name("name"))
            out.append((_text(child.child_by_field_name("alias")), key, orig))
        else:
            out.append((_text(child), key, _text(child)))
    if any(c.type == "wildcard_import" for c in node.children):
        out.append(("*", key, "*"))
    return out


def _js(node: Node, path: str) -> list[Import]:
    source = node.child_by_field_name("source")
    mod = _text(source).strip("'\"`")
    key = _relative(path, mod) if mod.startswith(".") else mod
    key = (
        posixpath.splitext(key)[0]
        if posixpath.splitext(key)[1] in (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx")
        else key
    )
    out: list[Import] = []
    for clause in (c for c in node.children if c.type == "import_clause"):
        for part in clause.children:
            if part.type == "identifier":
                out.append((_text(part), key, "default"))
            elif part.type == "namespace_import":
                out += [(_text(c), key, "*") for c in part.children if c.type == "identifier"]
            elif part.type == "named_imports":
                for spec in (s for s in part.children if s.type == "import_specifier"):
                    name = _text(spec.child_by_field_name("name"))
                    alias = _text(spec.child_by_field_name("alias")) or name
                    out.append((alias, key, name))
    if node.type == "export_statement":
        out += _js_reexports(node, key)
    return out or [("", key, "")]


def _js_reexports(node: Node, key: str) -> list[Import]:
    """`export { a, b as c } from './x'`, `export * from './x'`, `export * as ns from './x'`."""
    out: list[Import] = []
    for part in node.children:
        if part.type == "export_clause":
            for spec in (s for s in part.children if s.type == "export_specifier"):
                name = _text(spec.child_by_field_name("name"))
                out.append((_text(spec.child_by_field_name("alias")) or name, key, name))
        elif part.type == "namespace_export":
            out += [(_text(c), key, "*") for c in part.children if c.type == "identifier"]
        elif part.type == "*":
            out.append(("*", key, "*"))
    return out


def _go(node: Node, path: str) -> list[Import]:
    out: list[Import] = []
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur.type == "import_spec":
            mod = _text(cur.child_by_field_name("path")).strip('"`')
            alias = _text(cur.child_by_field_name("name")) or mod.rsplit("/", 1)[-1]
            out.append((alias, "dir:" + mod, ""))
        else:
            stack.extend(cur.children)
    return out


def _rust_use(node: Node, prefix: list[str], out: list[Import]) -> None:
    kind = node.type
    if kind in ("scoped_identifier", "identifier", "self", "crate", "super"):
        parts = prefix + [p for p in _text(node).split("::") if p]
        parts = [p for p in parts if p not in ("crate", "self", "super")]
        if parts:
            out.append((parts[-1], "/".join(parts[:-1]), parts[-1]))
    elif kind == "use_as_clause":
        parts = prefix + [p for p in _text(node.child_by_field_name("path")).split("::") if p]
        parts = [p for p in parts if p not in ("crate", "self", "super")]
        if parts:
            alias = _text(node.child_by_field_name("alias"))
            out.append((alias, "/".join(parts[:-1]), parts[-1]))
    elif kind == "scoped_use_list":
        base = [p for p in _text(node.child_by_field_name("path")).split("::") if p]
        lst = node.child_by_field_name("list")
        for child in lst.named_children if lst is not None else []:
            _rust_use(child, prefix + base, out)
    elif kind == "use_list":
        for child in node.named_children:
            _rust_use(child, prefix, out)
    elif kind == "use_wildcard":
        parts = [p for p in _text(node).split("::") if p not in ("", "*", "crate", "self", "super")]
        out.append(("*", "/".join(prefix + parts), "*"))


def _rust(node: Node, path: str) -> list[Import]:
    out: list[Import] = []
    arg = node.child_by_field_name("argument")
    if arg is not None:
        _rust_use(arg, [], out)
    return out


def _java(node: Node, path: str) -> list[Import]:
    dotted = next(
        (_text(c) for c in node.named_children if c.type in ("scoped_identifier", "identifier")), ""
    )
    parts = dotted.split(".")
    if any(c.type == "asterisk" for c in node.children):
        return [("*", "/".join(parts), "*")]
    return [(parts[-1], "/".join(parts[:-1]), parts[-1])] if dotted else []


def _c(node: Node, path: str) -> list[Import]:
    target = node.child_by_field_name("path")
    if target is None:
        return []
    raw = _text(target).strip('"<>')
    if target.type == "string_literal":
        raw = _relative(path, raw) if raw.startswith(".") else raw
    return [("", posixpath.splitext(raw)[0], "")]


def _ruby(node: Node, path: str) -> list[Import]:
    args = node.child_by_field_name("arguments")
    target = args.named_children[0] if args is not None and args.named_children else None
    if target is None or target.type != "string":
        return []
    mod = _text(target).strip("'\"")
    method = _text(node.child_by_field_name("method"))
    key = _relative(path, mod) if method == "require_relative" else mod
    return [("", posixpath.splitext(key)[0], "")]


def _csharp(node: Node, path: str) -> list[Import]:
    name = next(
        (c for c in node.named_children if c.type in ("qualified_name", "identifier")), None
    )
    return [("*", _text(name).replace(".", "/"), "*")] if name is not None else []


def _php_clause(clause: Node, prefix: list[str]) -> Import:
    named = [c for c in clause.named_children if c.type in ("qualified_name", "name")]
    parts = prefix + (_text(named[0]).replace("\\", "/").strip("/").split("/") if named else [])
    alias = _text(clause.child_by_field_name("alias")) or (parts[-1] if parts else "")
    return (alias, "/".join(parts[:-1]), parts[-1] if parts else "")


def _php(node: Node, path: str) -> list[Import]:
    out: list[Import] = []
    prefix_node = next((c for c in node.named_children if c.type == "namespace_name"), None)
    prefix = _text(prefix_node).replace("\\", "/").split("/") if prefix_node is not None else []
    group = node.child_by_field_name("body")
    for clause in (group or node).named_children:
        if clause.type == "namespace_use_clause":
            out.append(_php_clause(clause, prefix))
    return out


PARSERS: dict[str, Callable[[Node, str], list[Import]]] = {
    "python": _python,
    "javascript": _js,
    "typescript": _js,
    "tsx": _js,
    "go": _go,
    "rust": _rust,
    "java": _java,
    "c": _c,
    "cpp": _c,
    "ruby": _ruby,
    "csharp": _csharp,
    "php": _php,
}


@lru_cache(maxsize=65536)
def module_stems(path: str) -> tuple[str, ...]:
    """The module paths a file answers to: 'pkg/mod.py' → ('pkg/mod',); 'pkg/__init__.py' →
    ('pkg/__init__', 'pkg')."""
    stem = posixpath.splitext(path)[0]
    base = stem.rsplit("/", 1)[-1]
    if base in ("__init__", "index", "mod"):
        return (stem, posixpath.dirname(stem))
    return (stem,)


def file_matches(key: str, path: str) -> bool:
    """True when the project file `path` is what the module key `key` names."""
    if not key:
        return False
    if key.startswith("dir:"):
        folder = posixpath.dirname(path)
        mod = key[4:]
        return bool(folder) and (mod == folder or mod.endswith("/" + folder))
    tail = "/" + key
    return any(c and (c == key or c.endswith(tail)) for c in module_stems(path))
