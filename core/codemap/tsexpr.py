"""TypeScript expressions and types as the resolver reads them (`tsbinds.py` writes them):
a type node as the class it names (`type_of`; a generic's arguments kept, `Box[Foo]`), a call
chain with its arguments left out unless they are names (`chain_text`), the type a cast says
(`cast_type`)."""

from __future__ import annotations

import re
from typing import Any

_NAMES = re.compile(r"(?:this|[A-Za-z_$][\w$]*)(?:\.[A-Za-z_$][\w$]*)*")
_CHAIN_CHARS = 120  # a longer call chain is not written (cut short, it would mean another)
EXTERNAL_TYPE = "Object"  # a JavaScript global: the resolver's EXTERNAL
_SEQUENCES = frozenset({"Array", "ReadonlyArray", "Set", "ReadonlySet", "Iterable", "Iterator"})
_MAPPINGS = frozenset({"Map", "ReadonlyMap"})
_WRAPPERS = frozenset({"Partial", "Readonly", "Required", "NonNullable"})
_EACH = frozenset(  # an array's methods calling back with (element, index, array)
    "forEach map flatMap filter find findIndex findLast findLastIndex some every".split()
)
PAIRWISE = frozenset({"sort", "toSorted"})  # (a, b): two elements
FOLDS = frozenset({"reduce", "reduceRight"})  # (accumulated, element, index, array)
ELEMENT_CALLBACKS = _EACH | PAIRWISE | FOLDS  # their callbacks' parameters typed (tsinfer.py)


def text_of(node: Any) -> str:
    return node.text.decode("utf-8", "replace")


def type_of(node: Any) -> str:
    """The class a type node names, as the resolver reads it ('' when none can be said)."""
    kind = node.type
    if kind in ("type_identifier", "nested_type_identifier", "identifier"):
        return text_of(node)
    if kind == "generic_type":
        name = node.child_by_field_name("name")
        head = type_of(name) if name is not None else ""
        args = node.child_by_field_name("type_arguments")
        inner = [type_of(a) or "?" for a in args.named_children] if args is not None else []
        if head in _WRAPPERS and len(inner) == 1:  # `Partial<Observer<T>>`: an Observer
            return inner[0] if inner[0] != "?" else ""
        if head in _SEQUENCES and inner:  # what iterating or indexing it gives
            return f"Array[{inner[0]}]"
        if head in _MAPPINGS and len(inner) == 2:
            return f"Map[{inner[0]},{inner[1]}]"
        return f"{head}[{','.join(inner)}]" if head and inner else head  # `Box[Foo]`: generics.py
    if kind == "array_type" and node.named_child_count == 1:
        inner = type_of(node.named_children[0])
        return f"Array[{inner}]" if inner and "|" not in inner else EXTERNAL_TYPE
    if kind == "this_type":
        return "this"
    if kind in ("predefined_type", "literal_type", "array_type", "tuple_type", "object_type"):
        return EXTERNAL_TYPE
    if kind == "union_type":  # `Foo | undefined` is a Foo where a member is used
        parts = [type_of(c) for c in node.named_children]
        if not all(parts) or "this" in parts:
            return ""
        kept = [p for p in parts if p != EXTERNAL_TYPE]
        return "|".join(dict.fromkeys(kept)) if kept else EXTERNAL_TYPE
    if kind in ("function_type", "constructor_type"):
        said = node.child_by_field_name("return_type")
        return ">" + (type_of(said) or "?") if said is not None else ""
    if kind == "parenthesized_type" and node.named_child_count == 1:
        return type_of(node.named_children[0])
    return ""


def chain_text(node: Any) -> str:
    """A call chain as the resolver reads it, its arguments left out (`z.object({…}).partial()`
    → `z.object().partial()`) unless they are names (`first(pen)`); '' when the expression is
    not such a chain or is too long."""
    parts: list[str] = []
    while True:
        kind = node.type
        if kind == "call_expression":
            parts.append(_arguments(node.child_by_field_name("arguments")))
            node = node.child_by_field_name("function")
        elif kind == "member_expression":
            parts.append("." + text_of(node.child_by_field_name("property")))
            node = node.child_by_field_name("object")
        elif kind == "non_null_expression" and node.named_child_count == 1:
            node = node.named_children[0]  # `x!.y`
        elif kind == "parenthesized_expression" and node.named_child_count == 1:
            inner = node.named_children[0]
            typed = cast_type(inner)
            if typed:  # `(x as Foo).bar()` as `cast(Foo).bar()`: a Foo
                parts.append(f"cast({typed})")
                break
            node = inner
        elif kind in ("identifier", "this"):
            parts.append(text_of(node))
            break
        elif kind == "new_expression":
            head = chain_text(node.child_by_field_name("constructor"))
            if not head:
                return ""
            parts.append(f"new{head}()")
            break
        else:
            return ""
        if node is None or len(parts) > 24:
            return ""
    text = "".join(reversed(parts))
    return text if len(text) <= _CHAIN_CHARS else ""


def _arguments(args: Any) -> str:
    """A call's arguments as a chain keeps them: names only (`first(pen)`, `f(this.x, y)`:
    what solves a generic function's `T`, generics.py), else none (`()`)."""
    given = [c for c in args.named_children if c.type != "comment"] if args is not None else []
    if not given or args.type != "arguments" or len(given) > 4:
        return "()"
    if all(_NAMES.fullmatch(text_of(c)) for c in given):
        return "(" + ",".join(text_of(c) for c in given) + ")"
    return "()"


def cast_type(node: Any) -> str:
    """The type `x as Foo` or `<Foo>x` says (`as const` and the like: '')."""
    if node.type == "as_expression" and node.named_child_count == 2:
        typed = type_of(node.named_children[1])
    elif node.type == "type_assertion" and node.named_child_count == 2:
        args = node.named_children[0]
        typed = type_of(args.named_children[0]) if args.named_child_count == 1 else ""
    else:
        return ""
    return typed if typed and typed[:1] not in "><" else ""
