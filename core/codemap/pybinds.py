"""What a Python binding says about the type of the name it binds, as the index stores it.

Each binding becomes one row (kind, name, type) placed in its function by the parser. The type
is one of: a declared annotation in normal form after `:` (`typeexpr.py`; `x: Foo | None` →
`:Foo`), the callee
of a call (`x = Foo(…)` → `Foo`: what calling it gives), `=expr` (a copy of what `expr`
holds: `x = y.z`, `x = ys[0]`), `@expr` (an element of what iterating `expr` gives: `for x in
ys`; `@expr#1` the second of a tuple target; `&expr#1` the second part of `a, b = expr`), `~A|B` (a name for types: `Shape = Union[A,
B]`), `^name` (the pytest fixture the parameter is named after), `%expr` (what `with expr as
x` gives x); members of a conditional
(`x = A() if c else b`) are joined by `|`. Functions get `gives` and `yields` rows (what
`return x` and `yield x` hand back) and fixtures a `fixture` row.
"""

from __future__ import annotations

import re
from typing import Any

from core.codemap.nodes import span_of
from core.codemap.typeexpr import join_union, split_top, type_expr

Entry = tuple[int, int, str, str, str, int]  # (start byte, rank, kind, name, type, line)

_SPACES = re.compile(r"\s+")
_UNION_HEAD = re.compile(r"(?:typing\.)?(?:Union|Optional)\[")
_MAX = 80  # characters of an expression kept


def _head(text: str) -> str:
    """The dotted name a base starts with (`Any`, which the normal form drops)."""
    found = re.match(r"[A-Za-z_][\w.]*", text)
    return found.group() if found else ""


def _text(node: Any) -> str:
    return _SPACES.sub("", node.text[:200].decode("utf-8", "replace"))


def value_type(node: Any) -> str:
    """What a right-hand side gives, in the stored form ('' when nothing can be said)."""
    kind = node.type
    if kind == "call":
        callee = node.child_by_field_name("function")
        text = _text(callee) if callee is not None else ""
        args = node.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_child_count else None
        if text in KEEPS_ELEMENTS and first is not None and args.named_child_count == 1:
            text = f"={text}({_text(first)})"  # `list(routes)`: routes' items
        elif text in PAIRS_ELEMENTS and first is not None:
            text = f"={text}({_text(args)[1:-1]})"  # `enumerate(xs)`, `zip(a, b)`
        elif text in ("cast", "typing.cast") and first is not None:
            return type_expr(_text(first))  # `cast(Foo, x)`: a Foo
        elif text.rsplit(".", 1)[-1] in _TYPE_MAKERS:
            return _made_type(text.rsplit(".", 1)[-1], args)
        return text if len(text) <= _MAX else ""
    if kind == "await" and node.named_child_count == 1:  # what the coroutine returns
        return value_type(node.named_children[0])
    if kind in ("identifier", "attribute", "subscript"):
        text = _text(node)
        return "=" + text if len(text) <= _MAX else ""
    if kind == "conditional_expression":
        branches = [c for c in node.named_children]
        return _union([branches[0], branches[-1]]) if len(branches) >= 3 else ""
    if kind == "boolean_operator":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        return _union([left, right]) if left is not None and right is not None else ""
    if kind in _LITERALS and node.named_child_count:  # `[A(), B()]`: a list of A | B
        return _literal(kind, node)
    if kind in ("expression_list", "tuple") and node.named_child_count > 1:  # `return a, b`
        parts = [value_type(c) or "?" for c in node.named_children]
        return f"tuple[{','.join(parts)}]" if any(p != "?" for p in parts) else ""
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return value_type(node.named_children[0])
    return ""


_NOTHING = frozenset(
    {"none", "true", "false", "integer", "float", "string", "concatenated_string"}
    | {"list", "dictionary", "set", "tuple"}  # `x = [] if a is None else list(a)`
)
KEEPS_ELEMENTS = frozenset({"list", "tuple", "set", "frozenset", "sorted", "reversed", "iter"})
PAIRS_ELEMENTS = frozenset({"enumerate", "zip"})


_NOT_FIXTURES = frozenset({"self", "cls", "request"})
_SPLATS = {"list_splat_pattern": "tuple[{}]", "dictionary_splat_pattern": "dict[str,{}]"}
_LITERALS = {"list": "list", "set": "set", "dictionary": "dict"}
_ITEMS = 8  # elements of a literal looked at


def _literal(kind: str, node: Any) -> str:
    """`[A(), B()]` → `list[A|B]`, `{"k": A()}` → `dict[?,A]`; '' when an element is unknown."""
    parts = []
    for item in node.named_children[:_ITEMS]:
        if kind == "dictionary":
            item = item.child_by_field_name("value") if item.type == "pair" else None
        if item is not None and item.type in _NOTHING:
            continue
        member = value_type(item) if item is not None else ""
        if not member or len(split_top(member, ",")) > 1:
            return ""
        parts.append(member)
    joined = join_union(parts)
    if joined == "?":
        return ""
    return f"dict[?,{joined}]" if kind == "dictionary" else f"{_LITERALS[kind]}[{joined}]"


_TYPE_MAKERS = frozenset({"TypeVar", "NewType", "ParamSpec", "TypeVarTuple"})


def _made_type(maker: str, args: Any) -> str:
    """`T = TypeVar("T", bound=Foo)` → `~Foo`; `UserId = NewType("UserId", Base)` → `~Base`;
    an unbound TypeVar says nothing (not an external type: its users stay unknown)."""
    parts = args.named_children if args is not None else []
    if maker == "NewType" and len(parts) == 2:
        typed = type_expr(_text(parts[1]))
        return "~" + typed if typed else ""
    for part in parts:
        name = part.child_by_field_name("name") if part.type == "keyword_argument" else None
        if name is not None and name.text == b"bound":
            typed = type_expr(_text(part.child_by_field_name("value")))
            return "~" + typed if typed else ""
    return ""


def _union(nodes: list[Any]) -> str:
    """Members of a conditional's branches; a literal branch adds nothing, an unknown one
    makes the whole unknown."""
    out: list[str] = []
    for node in nodes:
        if node is None:
            return ""
        if node.type in _NOTHING:
            continue
        member = value_type(node)
        if not member:
            return ""
        out.append(member)
    joined = join_union(out)
    return "" if joined == "?" else joined


def python_binds(kind: str, node: Any, caps: dict[str, list[Any]]) -> list[Entry]:
    """The rows one captured Python binding makes (none when its type says nothing); a
    variable's come with a `block` row: the last line of the block it is bound in."""
    rows = _binds(kind, node, caps)
    for row in [r for r in rows if r[2] == "var"]:
        rows.append((row[0], 3, "block", row[3], str(_block_end(node)), row[5]))
    return rows


def _block_end(node: Any) -> int:
    """The last line of the block holding a binding: the function's (or the module's) for
    one at its top level, a branch's or a loop's for one inside it."""
    up = node.parent
    while up is not None and up.type != "block":
        up = up.parent
    if up is None or up.parent is None or up.parent.type in ("function_definition", "module"):
        return 0  # the whole function
    return up.end_point[0] + 1


def _function_end(node: Any) -> int:
    up = node.parent
    while up is not None and up.type not in ("function_definition", "module"):
        up = up.parent
    return up.end_point[0] + 1 if up is not None else node.end_point[0] + 1


def keep_blocks(binds: list[tuple[str, str, str, str, int]]) -> list:
    """Only the rows the resolver reads: a `block` row for a name its function binds more
    than once in a nested block, `gives` of a function without a return annotation, once."""
    counts: dict[tuple[str, str], int] = {}
    annotated = set()
    for kind, scope, name, _, _ in binds:
        if kind == "var":
            counts[(scope, name)] = counts.get((scope, name), 0) + 1
        elif kind == "returns":
            annotated.add(scope)
    out = []
    seen = set()
    for row in binds:
        kind = row[0]
        if kind == "block" and (row[3] == "0" or counts.get((row[1], row[2]), 0) < 2):
            continue
        if kind == "gives" and (row[1] in annotated or (row[1], row[3]) in seen):
            continue
        seen.add((row[1], row[3]))
        out.append(row)
    return out


def _binds(kind: str, node: Any, caps: dict[str, list[Any]]) -> list[Entry]:
    line = node.start_point[0] + 1
    name = node.text.decode("utf-8", "replace")
    at = node.start_byte
    if kind == "returns":
        return [(at, 1, "returns", "", type_expr(name), 0)] if type_expr(name) else []
    if kind in ("gives", "yields"):  # `return x`, `yield Foo()`: what the function hands back
        typed = value_type(node)
        return [(at, 2, kind, "", typed, 0)] if typed else []
    if kind == "base":  # `class C(Base[Foo], Generic[T])`: the base with its arguments
        typed = type_expr(name) or _head(name)
        return [(at, 1, kind, "", typed, 0)] if typed else []
    if kind in ("fixture", "property"):
        return [(at, 1, kind, name, "", line)]
    if kind == "fixarg":  # a test's or a fixture's parameter (not a method's own object)
        return [] if name in _NOT_FIXTURES else [(at, 1, "var", name, "^" + name, line)]
    if kind == "narrow":  # `if isinstance(x, T):` its block; `assert isinstance(x, T)`: on
        typed = type_expr(_text(caps["type"][0]))
        if "span" in caps:
            block = caps["span"][0]
            lines = f"{block.start_point[0] + 1}-{block.end_point[0] + 1}:"
        else:
            end = _block_end(node) or _function_end(node)
            lines = f"{line}-{end}:"
        return [(at, 1, "narrow", name, lines + typed, 0)] if typed else []
    if "iter" in caps:
        return _iterated(kind, node, caps["iter"][0])
    if kind == "unpack":  # `a, b = pair()`: each a part of what the right side holds
        return _iterated(kind, node, caps["value"][0], "&")
    if "type" in caps:
        typed_node = caps["type"][0]
        declared = typed_node.type == "type"
        typed = type_expr(_text(typed_node)) if declared else value_type(typed_node.parent)
        splat = node.parent.type if node.parent is not None else ""
        if declared and typed and splat in _SPLATS:  # `*args: Foo`, `**kwargs: Foo`
            typed = _SPLATS[splat].format(typed)
        typed = typed if len(typed) <= _MAX else ""
        typed = ":" + (typed or "?") if declared else typed  # `h: Callable = …` says no more
        return [(at, 0 if declared else 1, kind, name, typed, line)] if typed else []
    if "element" in caps or "item" in caps:  # `xs.append(Foo())`, `d[k] = Foo()`: what
        element = value_type((caps.get("element") or caps["item"])[0])  # it holds, unless
        shape = "list[{}]" if "element" in caps else "dict[?,{}]"  # a binding says more
        typed = "+" + shape.format(element) if element and "," not in element else ""
        return [(at, 1, kind, name, typed, line)] if typed else []
    if "entered" in caps:  # `with Foo() as f`: what Foo's `__enter__` gives (often itself)
        typed = value_type(caps["entered"][0])
        return [(at, 1, kind, name, "%" + typed, line)] if typed else []
    if "value" in caps or "alias" in caps:
        value = (caps.get("value") or caps["alias"])[0]
        raw = _text(value)
        if value.type in ("subscript", "binary_operator") and (
            _UNION_HEAD.match(raw) or value.type == "binary_operator"
        ):  # `Shape = Union[A, B]` / `A | B`: a name for types
            typed = type_expr(raw)
            typed = "~" + typed if typed and "|" in typed else ""
        else:
            typed = value_type(value)
        return [(at, 1, kind, name, typed, line)] if typed else []
    return []


_ADDS = frozenset({"append", "appendleft", "add"})


def added_elements(root: Any, refs: list) -> list[Entry]:
    """`xs.append(Foo())`, `self.seen.add(x)`: rows saying what the container holds (read
    from the file's call references, not by a query: the syntax tree is visited only at
    these few calls)."""
    out: list[Entry] = []
    for at, name, _, kind, receiver in refs:
        if kind != "call" or name not in _ADDS or not receiver:
            continue
        owner, dot, attr = receiver.partition(".")
        if not (receiver.isidentifier() or (owner == "self" and attr.isidentifier())):
            continue
        node = root.named_descendant_for_byte_range(at, at + len(name))
        call = node.parent.parent if node is not None and node.parent is not None else None
        args = call.child_by_field_name("arguments") if call is not None else None
        if args is None or call.type != "call" or args.named_child_count != 1:
            continue
        target = call.child(0).child_by_field_name("object")
        if dot:
            target = target.child_by_field_name("attribute")
        out += python_binds("attr" if dot else "var", target, {"element": args.named_children})
    return out


def _iterated(kind: str, node: Any, source: Any, mark: str = "@") -> list[Entry]:
    """`for x in xs` → x is an element of xs; `for k, v in d.items()` → each a part of one;
    `sorted(xs, key=lambda x: …)`, `map(lambda x: …, xs)`: the lambda's x, too."""
    text = value_type(source)
    if not text:
        return []
    parts = [(-1, node)] if kind != "unpack" else list(enumerate(node.named_children))
    spanned = node.parent is not None and node.parent.type in ("for_in_clause", "lambda_parameters")
    span = span_of(node) if spanned else ""
    out: list[Entry] = []
    for index, part in parts:
        if part.type != "identifier":
            continue
        typed = f"{mark}{text}#{index}" if index >= 0 else mark + text
        if span:  # a comprehension's or a lambda's own name: typed on its lines only
            out.append((part.start_byte, 1, "narrow", _text(part), f"{span}:{typed}", 0))
        else:
            out.append((part.start_byte, 1, "var", _text(part), typed, part.start_point[0] + 1))
    return out
