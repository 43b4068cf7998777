"""Python names used as values (`callback=handler`, `isinstance(x, Shape)`, `return Shape`),
inside annotations (`list[Shape]`, `Optional["Shape"]`) and in `global` statements: the
references a call query does not see.

Only names the file itself can mean a definition by are looked for: its definitions and its
`from … import` names (any other bare name is a local or a builtin, never a project
definition). One regular expression finds their occurrences; the syntax tree says which are
identifiers in a use (not a definition's name, a parameter, a keyword or an import) and
whether they stand in an annotation.
"""

from __future__ import annotations

import builtins
import keyword
import re
from typing import Any

Ref = tuple[int, str, int, str, str]  # (start byte, name, line, kind, receiver)

_BINDING_PARENTS = frozenset(
    {
        "parameters",
        "lambda_parameters",
        "typed_parameter",
        "list_splat_pattern",
        "dictionary_splat_pattern",
        "dotted_name",
        "aliased_import",
        "import_from_statement",
        "import_statement",
        "function_definition",
        "class_definition",
    }
)
_NAMED_FIRST_OR_STORE = frozenset(
    {"keyword_argument", "default_parameter", "typed_default_parameter", "assignment"}
)
_WORD = re.compile(rb"[\w.]")  # a name starts after neither a word character nor a dot
_WORD_CHAR = re.compile(rb"\w")
_TYPE_DEPTH = 8  # how far up an annotation's `type` node is looked for
_IDENTIFIER = re.compile(rb"(?<![\w.])[A-Za-z_][A-Za-z0-9_]*")
_MANY = 64  # more names than this: one pass over the file's identifiers, not a find per name
_NEVER = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))


def star_candidates(data: bytes, local: set[str]) -> set[str]:
    """Names a file with `from m import *` may use as m's: every identifier in it but the
    keywords, the builtins and the names its functions bind."""
    words = {w.decode() for w in set(_IDENTIFIER.findall(data))}
    return words - _NEVER - local


def python_values(root: Any, data: bytes, names: set[str], taken: set[int]) -> list[Ref]:
    """Value and annotation references to `names`; `taken`: start bytes already referenced
    (calls, bases, decorators, attributes) or defined."""
    if len(names) > _MANY:  # a star import's candidates: one pass over the identifiers
        return _one_pass(root, data, names, taken)
    out: list[Ref] = []
    size = len(data)
    for word in names:
        if not word.isidentifier() or not word.isascii():
            continue
        needle = word.encode()
        at = data.find(needle)
        while at >= 0:  # bytes.find per name: no pattern to compile for every file
            end = at + len(needle)
            before = data[at - 1 : at] if at else b" "
            after = data[end : end + 1] if end < size else b" "
            if at not in taken and not _WORD.match(before) and not _WORD_CHAR.match(after):
                node = root.named_descendant_for_byte_range(at, end)
                kind = _kind(node, at, end) if node is not None else ""
                if kind:
                    out.append((at, word, node.start_point[0] + 1, kind, ""))
            at = data.find(needle, end)
    return out


def _one_pass(root: Any, data: bytes, names: set[str], taken: set[int]) -> list[Ref]:
    out: list[Ref] = []
    wanted = {n.encode() for n in names if n.isidentifier() and n.isascii()}
    for found in _IDENTIFIER.finditer(data):
        at, end = found.span()
        word = found.group()
        if word not in wanted or at in taken or (at and data[at - 1 : at] == b"."):
            continue
        node = root.named_descendant_for_byte_range(at, end)
        kind = _kind(node, at, end) if node is not None else ""
        if kind:
            out.append((at, word.decode(), node.start_point[0] + 1, kind, ""))
    return out


def _kind(node: Any, start: int, end: int) -> str:
    """'value', 'type' or '' (not a use) for the node at an occurrence."""
    if node.type == "string_content":  # `"Shape"` as a forward reference
        return "type" if _in_annotation(node) else ""
    if node.type != "identifier" or node.start_byte != start or node.end_byte != end:
        return ""
    parent = node.parent
    if parent is None or parent.type in _BINDING_PARENTS:
        return ""
    if parent.type in _NAMED_FIRST_OR_STORE and parent.child(0) == node:
        return ""  # `f(name=…)`, `def f(name=…)`, `name = …`: a keyword or a binding
    if parent.type == "attribute" and parent.child_by_field_name("attribute") == node:
        return ""  # `x.name`: an attribute, found by the query
    return "type" if _in_annotation(node) else "value"


def _in_annotation(node: Any) -> bool:
    up = node.parent
    for _ in range(_TYPE_DEPTH):
        if up is None:
            return False
        if up.type == "type":
            return True
        up = up.parent
    return False
