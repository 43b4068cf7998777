"""What a TypeScript file tells about the types of its names, written down at parse time as
binds the resolver reads (see `parse.py` for the rows; `infer.py` reads the types):

- returns: a function's, a method's or an overload's return type (`(): ZodString`, `: this`);
- attr: a class field holding a function (`static create = (): ZodString => …`) as `>T`,
  a function whose call gives a T; a field's generic or qualified type (`x: core.Foo<T>`);
- var: a name bound to a call chain (`const s = z.string().min(1)` as `=z.string().min(1)`),
  to an object literal (`Object`: its properties are its own, never a definition elsewhere),
  a generic or qualified annotation (`a: Map<K, V>`, `p: core.Params`), and a name a module
  exports under another (`export { dateType as date }`: `date` holds what `dateType` holds);
- attr, too: every member a class or an interface declares (`?`: of a type not said), an
  interface's property by its type and method signature as `>T`;
- alias: what a type alias names (`type State = A | B`), read as what "calling" it gives;
- base: an interface's `extends` (`interface ZodString extends _ZodString<…>`), and a class
  base that is not a plain name (`extends mix(B)`: `?`, an ancestor nobody can follow).

A type is written as the class it names: a generic's head (`Promise<X>` → `Promise`), a union's
members joined by `|` (`undefined`, `null` and the like left out), a predefined type (`string`,
`void`) as `Object` (external).
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

_SPACES = re.compile(r"\s+")
_CHAIN_CHARS = 120  # a longer call chain is not written (cut short, it would mean another)
EXTERNAL_TYPE = "Object"  # a JavaScript global: the resolver's EXTERNAL

_DECLARED = "[(generic_type) (nested_type_identifier) (union_type) (predefined_type) (this_type)]"
_FUNCTION = "[(arrow_function return_type: (type_annotation (_) @type)) (function_expression "
_FUNCTION += "return_type: (type_annotation (_) @type))]"
QUERY = f"""
(function_declaration return_type: (type_annotation (_) @returns))
(function_signature return_type: (type_annotation (_) @returns))
(method_definition return_type: (type_annotation (_) @returns))
(abstract_method_signature return_type: (type_annotation (_) @returns))
(program (lexical_declaration (variable_declarator
  value: [(arrow_function return_type: (type_annotation (_) @returns))
          (function_expression return_type: (type_annotation (_) @returns))])))
(program (export_statement declaration: (lexical_declaration (variable_declarator
  value: [(arrow_function return_type: (type_annotation (_) @returns))
          (function_expression return_type: (type_annotation (_) @returns))]))))
(public_field_definition name: (property_identifier) @field value: {_FUNCTION})
(public_field_definition name: (property_identifier) @field type: (type_annotation {_DECLARED} @type))
(variable_declarator name: (identifier) @var value: (call_expression) @chain)
(variable_declarator name: (identifier) @var value: (object) @object)
(variable_declarator name: (identifier) @var type: (type_annotation {_DECLARED} @type))
(required_parameter pattern: (identifier) @var type: (type_annotation {_DECLARED} @type))
(optional_parameter pattern: (identifier) @var type: (type_annotation {_DECLARED} @type))
(export_statement !source (export_clause (export_specifier name: (identifier) @orig
  alias: (identifier) @exported)))
(extends_type_clause type: (_) @base)
(type_alias_declaration name: (type_identifier) @alias value: (_) @type)
(public_field_definition name: [(property_identifier) (private_property_identifier)] @member)
(property_signature name: (property_identifier) @member)
(method_signature name: (property_identifier) @method)
(class_heritage (extends_clause value: (_) @anybase))
"""
TS_GRAMMARS = frozenset({"typescript", "tsx"})
JS_GRAMMARS = TS_GRAMMARS | {"javascript"}

Row = tuple[int, int, str, str, str, int]  # (start byte, rank, kind, name, type, line)


@cache
def _query(lang: str) -> Any:
    import tree_sitter as ts
    from tree_sitter_language_pack import get_language

    return ts.Query(get_language(lang), QUERY)


def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace")


def type_of(node: Any) -> str:
    """The class a type node names, as the resolver reads it ('' when none can be said)."""
    kind = node.type
    if kind in ("type_identifier", "nested_type_identifier", "identifier"):
        return _text(node)
    if kind == "generic_type":
        name = node.child_by_field_name("name")
        return type_of(name) if name is not None else ""
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
    if kind == "parenthesized_type" and node.named_child_count == 1:
        return type_of(node.named_children[0])
    return ""


def chain_text(node: Any) -> str:
    """A call chain as the resolver reads it, its arguments left out (`z.object({…}).partial()`
    → `z.object().partial()`); '' when the expression is not such a chain or is too long."""
    parts: list[str] = []
    while True:
        kind = node.type
        if kind == "call_expression":
            parts.append("()")
            node = node.child_by_field_name("function")
        elif kind == "member_expression":
            parts.append("." + _text(node.child_by_field_name("property")))
            node = node.child_by_field_name("object")
        elif kind == "non_null_expression" and node.named_child_count == 1:
            node = node.named_children[0]  # `x!.y`
        elif kind in ("identifier", "this"):
            parts.append(_text(node))
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


def ts_binds(lang: str, root: Any) -> list[Row]:
    """The rows above for one parsed TypeScript file."""
    import tree_sitter as ts

    rows: list[Row] = []
    for _, caps in ts.QueryCursor(_query(lang)).matches(root):
        row = _row(caps)
        if row is not None:
            rows.append(row)
    return rows


def _row(caps: dict[str, list[Any]]) -> Row | None:
    if "returns" in caps:
        node = caps["returns"][0]
        typed = type_of(node)
        return (node.start_byte, 1, "returns", "", typed, 0) if typed else None
    if "base" in caps or "anybase" in caps:
        node = (caps.get("base") or caps["anybase"])[0]
        if "anybase" in caps and node.type in ("identifier", "member_expression"):
            return None  # the language table's own base rule writes these
        typed = type_of(node) if "base" in caps else "?"
        return (node.start_byte, 1, "base", "", typed or "?", 0)
    if "member" in caps or "method" in caps:
        return _member(caps)
    if "alias" in caps:
        node = caps["alias"][0]
        typed = type_of(caps["type"][0])
        return (node.start_byte, 1, "alias", _text(node), typed, 0) if typed else None
    if "exported" in caps:
        node = caps["exported"][0]
        orig = _text(caps["orig"][0])
        return (node.start_byte, 1, "var", _text(node), "=" + orig, node.start_point[0] + 1)
    name = (caps.get("field") or caps.get("var") or [None])[0]
    if name is None:
        return None
    kind = "attr" if "field" in caps else "var"
    line = name.start_point[0] + 1
    if "chain" in caps:
        text = chain_text(caps["chain"][0])
        if not text or text.startswith("new"):
            return None
        return (name.start_byte, 1, kind, _text(name), "=" + text, line)
    if "object" in caps:
        literal = caps["object"][0]
        if any(c.type == "method_definition" for c in literal.named_children):
            return None  # `{ f() {} }`: its methods are definitions of the file
        return (name.start_byte, 1, kind, _text(name), EXTERNAL_TYPE, line)
    typed = type_of(caps["type"][0]) if "type" in caps else ""
    if not typed:
        return None
    rank = 0  # declared: `x: Base = Derived()` has the declared type first
    if "field" in caps and caps["type"][0].parent.parent.type != "public_field_definition":
        typed, rank = ">" + typed, 1  # the field holds a function: calling it gives the type
    return (name.start_byte, rank, kind, _text(name), typed, line)


def _member(caps: dict[str, list[Any]]) -> Row:
    """A member TypeScript declares: a field (`?` where its type is not said), an interface's
    property (its type) or method signature (`>` its return type)."""
    node = (caps.get("member") or caps["method"])[0]
    up = node.parent
    said = up.child_by_field_name("return_type" if "method" in caps else "type")
    typed = type_of(said.named_children[0]) if said is not None and said.named_children else ""
    if up.type == "public_field_definition":
        typed = ""  # the rules above type a field; this row says it is declared
    typed = (">" if "method" in caps else "") + (typed or "?")
    return (node.start_byte, 1, "attr", _text(node), typed, node.start_point[0] + 1)
