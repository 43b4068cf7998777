"""What a TypeScript file tells about the types of its names, written down at parse time as
binds the resolver reads (see `parse.py` for the rows; `infer.py` reads the types):

- returns: a function's, a method's or an overload's return type (`(): ZodString`, `: this`);
- attr: a class field holding a function (`static create = (): ZodString => …`) as `>T`,
  one holding what a name holds (`static create = createZodEnum`) as `=createZodEnum`,
  a function whose call gives a T; a field's declared type (`x: core.Foo<T>`, `:core.Foo`);
- var: a name's or a parameter's declared type (`:T`: it holds where the name is read, whatever
  is assigned), a name bound to a call chain (`const s = z.string().min(1)` as `=z.string().min(1)`),
  to an object literal (`Object`: its properties are its own, never a definition elsewhere),
  a generic or qualified annotation (`a: Map<K, V>`, `p: core.Params`), and a name a module
  exports under another (`export { dateType as date }`: `date` holds what `dateType` holds)
  and its default (`export default foo`: `default`), a cast (`x as Foo`);
- attr, too: every member a class or an interface declares (`?`: of a type not said), an
  interface's property by its type and method signature as `>T`;
- param: a parameter `i` typed as a function, the type of that function's parameter `j`
  (`i.j`); var, too: an untyped parameter `j` of a function passed as argument `i` of a call
  or `new` (`<callee#i#j`: what the callee says of it, read in `tsinfer.py`);
- alias: what a type alias names (`type State = A | B`), read as what "calling" it gives;
- var, too: `for (const x of xs)` as an element of what xs holds (`@=xs`), `const { a } = o`
  as `=o.a`;
- base: an interface's `extends` (`interface ZodString extends _ZodString<…>`), a class's
  `implements` (its members share the interface's: `tsfamily.py`), and a class
  base that is not a plain name (`extends mix(B)`: `?`, an ancestor nobody can follow).

Doc comments' `{@link Name}`, `@see Name` and tags' `{Type}` are references too (`tsdocs.py`).

A type is written as the class it names: a generic with its arguments (`Box<Foo, T>` →
`Box[Foo,T]`, read by `generics.py`: a class's or an interface's type parameters are a
`Generic[T,U]` base row, `extends Base<Foo>` the base `Base[Foo]`), a union's
members joined by `|` (`undefined`, `null` and the like left out), a predefined type (`string`,
`void`) as `Object` (external), a function type as `>T`, an array or a `Set<X>` as `Array[X]`,
a `Map<K, V>` as `Map[K,V]` (read as containers: `infer.py`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from core.codemap.tsdocs import Link, doc_links
from core.codemap.tsexpr import (
    ELEMENT_CALLBACKS,
    EXTERNAL_TYPE,
    cast_type,
    chain_text,
    text_of,
    type_of,
)

_DECLARED = "[(generic_type) (nested_type_identifier) (union_type) (predefined_type) (this_type)"
_DECLARED += " (array_type) (type_identifier)]"
_FUNCTION = "[(arrow_function return_type: (type_annotation (_) @type)) (function_expression "
_FUNCTION += "return_type: (type_annotation (_) @type))]"
QUERY = f"""
(function_declaration return_type: (type_annotation (_) @returns))
(function_signature return_type: (type_annotation (_) @returns))
(method_definition return_type: (type_annotation (_) @returns))
(abstract_method_signature return_type: (type_annotation (_) @returns))
(class_body (method_signature return_type: (type_annotation (_) @returns)))
(program (lexical_declaration (variable_declarator
  value: [(arrow_function return_type: (type_annotation (_) @returns))
          (function_expression return_type: (type_annotation (_) @returns))])))
(program (export_statement declaration: (lexical_declaration (variable_declarator
  value: [(arrow_function return_type: (type_annotation (_) @returns))
          (function_expression return_type: (type_annotation (_) @returns))]))))
(public_field_definition name: (property_identifier) @field value: {_FUNCTION})
(public_field_definition
  value: [(arrow_function return_type: (type_annotation (_) @returns))
          (function_expression return_type: (type_annotation (_) @returns))])
(public_field_definition name: (property_identifier) @field value: [(identifier) (member_expression)] @chain)
(public_field_definition name: (property_identifier) @field type: (type_annotation {_DECLARED} @type))
(variable_declarator name: (identifier) @var value: (call_expression) @chain)
(variable_declarator name: (identifier) @var value: (object) @object)
(variable_declarator name: (identifier) @var
  value: (new_expression constructor: (_) @made type_arguments: (type_arguments) @targs))
(variable_declarator name: (identifier) @var type: (type_annotation {_DECLARED} @type))
(required_parameter pattern: (identifier) @var type: (type_annotation {_DECLARED} @type))
(optional_parameter pattern: (identifier) @var type: (type_annotation {_DECLARED} @type))
(required_parameter pattern: (rest_pattern (identifier) @var) type: (type_annotation {_DECLARED} @type))
(required_parameter (accessibility_modifier) pattern: (identifier) @field
  type: (type_annotation {_DECLARED} @type))
(optional_parameter (accessibility_modifier) pattern: (identifier) @field
  type: (type_annotation {_DECLARED} @type))
(export_statement !source (export_clause (export_specifier name: (identifier) @orig
  alias: (identifier) @exported)))
(extends_type_clause type: (_) @base)
(class_heritage (implements_clause (_) @base))
(type_alias_declaration name: (type_identifier) @alias value: (_) @type)
(for_in_statement left: (identifier) @var right: (_) @iterated)
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @var)
  value: (_) @unpacked)
(formal_parameters [(required_parameter type: (type_annotation (function_type)))
  (optional_parameter type: (type_annotation (function_type)))] @callback)
(arguments [(arrow_function) (function_expression)] @passed)
(comment) @comment
(program (export_statement) @default)
(variable_declarator name: (identifier) @var value: [(as_expression) (satisfies_expression)] @cast)
(public_field_definition name: [(property_identifier) (private_property_identifier)] @member)
(interface_body (property_signature name: (property_identifier) @member))
(type_alias_declaration value: (object_type (property_signature name: (property_identifier) @member)))
(interface_body (method_signature name: (property_identifier) @method))
(class_body (method_signature name: (property_identifier) @method))
(class_heritage (extends_clause value: (_) @anybase))
(class_declaration type_parameters: (type_parameters) @tparams)
(abstract_class_declaration type_parameters: (type_parameters) @tparams)
(interface_declaration type_parameters: (type_parameters) @tparams)
"""
TS_GRAMMARS = frozenset({"typescript", "tsx"})
JS_GRAMMARS = TS_GRAMMARS | {"javascript"}

Row = tuple[int, int, str, str, str, int]  # (start byte, rank, kind, name, type, line)


@cache
def _query(lang: str) -> Any:
    import tree_sitter as ts
    from tree_sitter_language_pack import get_language

    return ts.Query(get_language(lang), QUERY)


def _default(node: Any) -> Row | None:
    """`export default foo` (a function, a class, a value): what the module's default holds."""
    if not any(c.type == "default" for c in node.children):
        return None
    said = node.child_by_field_name("declaration")
    value = node.child_by_field_name("value")
    named = said.child_by_field_name("name") if said is not None else None
    if named is not None:
        typed = "=" + text_of(named)
    elif value is not None and value.type == "new_expression":
        made = value.child_by_field_name("constructor")
        typed = chain_text(made) if made is not None else ""
    else:
        typed = chain_text(value) if value is not None else ""
        typed = "=" + typed if typed and not typed.startswith("new") else ""
    return (node.start_byte, 1, "var", "default", typed, node.start_point[0] + 1) if typed else None


def ts_binds(lang: str, root: Any) -> tuple[list[Row], list[Link]]:
    """The rows above for one parsed TypeScript file, and the references its doc comments
    make (`{@link Subject}`: the compiler's findReferences counts them)."""
    import tree_sitter as ts

    rows: list[Row] = []
    links: list[Link] = []
    for _, caps in ts.QueryCursor(_query(lang)).matches(root):
        if "comment" in caps:
            links += doc_links(caps["comment"][0])
            continue
        if "callback" in caps or "passed" in caps:
            found = caps.get("callback") or caps["passed"]
            rows += _callback_types(found[0]) if "callback" in caps else _passed(found[0])
            continue
        row = _row(caps)
        if row is not None:
            rows.append(row)
    return rows, links


def _params(node: Any) -> list[Any]:
    """A function's or a function type's parameters, `this: T` left out."""
    if node.type == "identifier":  # `s => …`
        return [node]
    return [
        p
        for p in node.named_children
        if p.type in ("required_parameter", "optional_parameter")
        and (
            p.child_by_field_name("pattern") is None
            or p.child_by_field_name("pattern").type != "this"
        )
    ]


def _callback_types(param: Any) -> list[Row]:
    """A parameter `i` typed as a function: the type of each of that function's parameters,
    as `param` rows named `i.j` (what a callback passed there gets: `_passed`)."""
    said = param.child_by_field_name("type")
    kind = said.named_children[0] if said is not None and said.named_children else None
    if kind is None or kind.type != "function_type":
        return []
    inner = kind.child_by_field_name("parameters")
    if inner is None or param.parent is None or param.parent.parent is None:
        return []
    if param.parent.parent.type == "function_type":
        return []  # a function type's own parameter, not a function's
    listed = _params(param.parent)
    if param not in listed:
        return []  # `this: (…) => T`: no argument
    i = listed.index(param)
    out: list[Row] = []
    for j, part in enumerate(_params(inner)):
        got = part.child_by_field_name("type")
        typed = type_of(got.named_children[0]) if got is not None and got.named_children else ""
        if typed:
            out.append((param.start_byte, 1, "param", f"{i}.{j}", typed, 0))
    return out


def _passed(function: Any) -> list[Row]:
    """A function passed as argument `i` of a call or `new`: each untyped parameter `j` is
    what the callee's parameter type says (`new Observable((subscriber) => …)`), as
    `<callee#i#j`."""
    args = function.parent
    call = args.parent
    if call is None or call.type not in ("call_expression", "new_expression"):
        return []
    head = call.child_by_field_name("function" if call.type == "call_expression" else "constructor")
    callee = chain_text(head) if head is not None else ""
    if not callee or ("(" in callee and callee.rpartition(".")[2] not in ELEMENT_CALLBACKS):
        return []  # `a.b().c(f)`: only a named callee, or an array's own (`xs.filter().map`)
    callee = ("new" if call.type == "new_expression" else "") + callee
    i = [c for c in args.named_children if c.type != "comment"].index(function)
    params = function.child_by_field_name("parameters") or function.child_by_field_name("parameter")
    if params is None:
        return []
    out: list[Row] = []
    for j, part in enumerate(_params(params)):
        name = part if part.type == "identifier" else part.child_by_field_name("pattern")
        if name is None or name.type != "identifier" or part.child_by_field_name("type"):
            continue
        line = name.start_point[0] + 1
        out.append((name.start_byte, 1, "var", text_of(name), f"<{callee}#{i}#{j}", line))
    return out


def _row(caps: dict[str, list[Any]]) -> Row | None:
    if "returns" in caps:
        node = caps["returns"][0]
        typed = type_of(node)
        at = _overloaded(node.parent.parent) if node.parent.parent.type == "method_signature" else 0
        return (at or node.start_byte, 1, "returns", "", typed, 0) if typed and at >= 0 else None
    if "tparams" in caps:  # `class Box<T, U>`: its type variables, as generics.py reads them
        node = caps["tparams"][0]
        names = [
            text_of(p.child_by_field_name("name"))
            for p in node.named_children
            if p.type == "type_parameter"
        ]
        return (node.start_byte, 1, "base", "", f"Generic[{','.join(names)}]", 0) if names else None
    if "base" in caps or "anybase" in caps:
        node = (caps.get("base") or caps["anybase"])[0]
        if "anybase" in caps and node.type in ("identifier", "member_expression"):
            return _filled_base(node)  # the language table's own base rule writes plain ones
        typed = type_of(node) if "base" in caps else "?"
        return (node.start_byte, 1, "base", "", typed or "?", 0)
    if "member" in caps or "method" in caps:
        return _member(caps)
    if "default" in caps:
        return _default(caps["default"][0])
    if "cast" in caps:
        typed = cast_type(caps["cast"][0])
        name = caps["var"][0]
        return (
            (name.start_byte, 1, "var", text_of(name), typed, name.start_point[0] + 1)
            if typed
            else None
        )
    if "alias" in caps:
        node = caps["alias"][0]
        typed = type_of(caps["type"][0])
        return (node.start_byte, 1, "alias", text_of(node), typed, 0) if typed else None
    if "exported" in caps:
        node = caps["exported"][0]
        orig = text_of(caps["orig"][0])
        return (node.start_byte, 1, "var", text_of(node), "=" + orig, node.start_point[0] + 1)
    name = (caps.get("field") or caps.get("var") or [None])[0]
    if name is None or _bodiless(name):
        return None
    kind = "attr" if "field" in caps else "var"
    line = name.start_point[0] + 1
    if "iterated" in caps:  # `for (const x of xs)`: an element of what xs holds
        source = caps["iterated"][0]
        if not any(c.type == "of" for c in source.parent.children):
            return None  # `for (const k in o)`: its keys
        text = chain_text(source)
        return (name.start_byte, 1, kind, text_of(name), "@=" + text, line) if text else None
    if "unpacked" in caps:  # `const { a } = this.config`: what config's `a` holds
        text = chain_text(caps["unpacked"][0])
        if not text or text.startswith("new"):
            return None
        return (name.start_byte, 1, kind, text_of(name), f"={text}.{text_of(name)}", line)
    if "targs" in caps:  # `new Box<Pen>()`: a Box with T a Pen
        made = chain_text(caps["made"][0])
        inner = ",".join(type_of(a) or "?" for a in caps["targs"][0].named_children)
        return (
            (name.start_byte, 0, kind, text_of(name), f":{made}[{inner}]", line) if made else None
        )
    if "chain" in caps:
        text = chain_text(caps["chain"][0])
        if not text or text.startswith("new"):
            return None
        return (name.start_byte, 1, kind, text_of(name), "=" + text, line)
    if "object" in caps:
        literal = caps["object"][0]
        if any(c.type == "method_definition" for c in literal.named_children):
            return None  # `{ f() {} }`: its methods are definitions of the file
        return (name.start_byte, 1, kind, text_of(name), EXTERNAL_TYPE, line)
    up = name.parent.parent
    if up is not None and up.parent is not None and up.parent.type == "function_type":
        return None  # `cb: (s: S) => void`: s is no name of the function
    typed = type_of(caps["type"][0]) if "type" in caps else ""
    if not typed:
        return None
    if caps["type"][0].parent.parent.type in ("arrow_function", "function_expression"):
        return (name.start_byte, 1, kind, text_of(name), ">" + typed, line)  # calling it gives
    return (name.start_byte, 0, kind, text_of(name), ":" + typed, line)  # declared: it holds


def _overloaded(signature: Any) -> int:
    """A class method's overload (`default(def: X): ZodDefault<this>;`): where the method's
    own body starts (its return type is the overload's, the first one's), -1 when none."""
    name = text_of(signature.child_by_field_name("name"))
    later = signature.next_named_sibling
    while later is not None and later.type == "method_signature":
        later = later.next_named_sibling
    if (
        later is None
        or later.type != "method_definition"
        or later.child_by_field_name("return_type")
    ):
        return -1
    if text_of(later.child_by_field_name("name")) != name:
        return -1
    return later.child_by_field_name("body").start_byte


def _filled_base(node: Any) -> Row | None:
    """`extends Base<Foo, T>` as `Base[Foo,T]` (it replaces the plain `Base` row: parse.py)."""
    args = node.parent.child_by_field_name("type_arguments")
    if args is None or not args.named_children:
        return None
    inner = ",".join(type_of(a) or "?" for a in args.named_children)
    return (node.start_byte, 1, "base", "", f"{chain_text(node) or text_of(node)}[{inner}]", 0)


_PARAMETERS = ("rest_pattern", "required_parameter", "optional_parameter")
_BODILESS = frozenset({"method_signature", "function_signature", "abstract_method_signature"})


def _bodiless(name: Any) -> bool:
    """A parameter of an overload signature or a function type (`next: (value: T) => void`):
    it binds nothing a body reads."""
    params = name.parent
    while params is not None and params.type in _PARAMETERS:
        params = params.parent
    if params is None or params.type != "formal_parameters" or params.parent is None:
        return False
    return params.parent.type in _BODILESS or params.parent.type.endswith("function_type")


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
    return (node.start_byte, 1, "attr", text_of(node), typed, node.start_point[0] + 1)
