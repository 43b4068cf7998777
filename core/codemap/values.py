"""Python names used as values (`callback=handler`, `isinstance(x, Shape)`, `return Shape`),
inside annotations (`list[Shape]`, `Optional["Shape"]`) and in `global` statements: the
references a call query does not see.

Only names the file itself can mean a definition by are looked for: its definitions and its
`from … import` names (any other bare name is a local or a builtin, never a project
definition). One regular expression finds the file's words, a set keeps those names; the
syntax tree says which are identifiers in a use (not a definition's name, a parameter, a
keyword or an import) and whether they stand in an annotation.
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
_NAME = re.compile(rb"(?<![\w.])[A-Za-z_]\w*")  # a whole word, not after a dot
_TYPE_DEPTH = 8  # how far up an annotation's `type` node is looked for
_NEVER = frozenset(keyword.kwlist) | frozenset(keyword.softkwlist) | frozenset(dir(builtins))


def star_candidates(data: bytes, local: set[str]) -> set[str]:
    """Names a file with `from m import *` may use as m's: every identifier in it but the
    keywords, the builtins and the names its functions bind."""
    words = {w.decode() for w in set(_NAME.findall(data))}
    return words - _NEVER - local


def python_values(root: Any, data: bytes, names: set[str], taken: set[int]) -> list[Ref]:
    """Value and annotation references to `names`; `taken`: start bytes already referenced
    (calls, bases, decorators, attributes) or defined."""
    wanted = {w.encode() for w in names if w.isidentifier() and w.isascii()}
    out: list[Ref] = []
    if not wanted:
        return out
    for match in _candidates(wanted).finditer(data):  # one scan of the file's words
        word = match.group()
        if word not in wanted or match.start() in taken:
            continue
        at, end = match.span()
        node = root.named_descendant_for_byte_range(at, end)
        kind = _kind(node, at, end) if node is not None else ""
        if kind:
            out.append((at, word.decode(), node.start_point[0] + 1, kind, ""))
    return out


def _candidates(wanted: set[bytes]) -> re.Pattern[bytes]:
    """`_NAME`'s words that start with a wanted name's first two characters: the pattern
    starts with a character class, which the regex engine skips to in C, and looks behind
    only there (the stdlib's scans: 1.23 CPU-s against 1.79 for every word)."""
    first = _char_class({w[0] for w in wanted})
    second = {w[1] for w in wanted if len(w) > 1}
    tails = [_char_class(second) + rb"\w*"] if second else []
    if any(len(w) == 1 for w in wanted):
        tails.append(rb"(?!\w)")
    return re.compile(first + rb"(?<![\w.].)(?:" + b"|".join(tails) + b")")


def _char_class(chars: set[int]) -> bytes:
    return b"[" + b"".join(re.escape(bytes([c])) for c in sorted(chars)) + b"]"


def _kind(node: Any, start: int, end: int) -> str:
    """'value', 'type' or '' (not a use) for the node at an occurrence."""
    if node.type == "string_content":  # `"Shape"` as a forward reference
        return "type" if _in_annotation(node) or _typing_string(node.parent) else ""
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


def _typing_string(string: Any) -> bool:
    """A string typing reads as a type outside an annotation (pyright's references):
    `TypeVar("T", bound="Shape")` and its constraints, `cast("Shape", x)`, `NewType("N",
    "Shape")`, `Union["Shape", None]` in a type alias."""
    up = string.parent if string is not None else None
    if up is None:
        return False
    if up.type == "keyword_argument":
        name = up.child_by_field_name("name")
        return name is not None and name.text == b"bound" and _called(up.parent) in _MAKERS
    if up.type == "argument_list":
        first = up.named_children[0] == string if up.named_child_count else False
        callee = _called(up)
        return (callee == "cast" and first) or (callee in _MAKERS and not first)
    if up.type == "subscript" and up.child_by_field_name("value") != string:
        value = up.child_by_field_name("value")
        word = value.text.rsplit(b".", 1)[-1] if value is not None else b""
        return value is not None and value.type in ("identifier", "attribute") and word in _GENERICS
    return False


def _called(arguments: Any) -> str:
    """The last name of the function an argument list is passed to ('' if none)."""
    call = arguments.parent if arguments is not None else None
    callee = call.child_by_field_name("function") if call is not None else None
    if callee is None or call.type != "call":
        return ""
    return callee.text.rsplit(b".", 1)[-1].decode("utf-8", "replace")


_MAKERS = frozenset({"TypeVar", "NewType"})
_GENERICS = frozenset(
    b"Union Optional List Dict Set FrozenSet Tuple Type type Sequence Mapping Iterable "
    b"Iterator Callable ClassVar Final Annotated".split()
)


def _in_annotation(node: Any) -> bool:
    up = node.parent
    for _ in range(_TYPE_DEPTH):
        if up is None:
            return False
        if up.type == "type":
            return True
        up = up.parent
    return False
