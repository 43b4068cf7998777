"""One file's bytes → symbols and references, with tree-sitter queries from `langs.py`.

Results are plain tuples so a process pool can ship them cheaply:
symbol = (name, kind, line, end_line, scope, signature, exported, module_key, orig_name)
ref = (name, line, kind, scope, receiver)
bind = (kind, scope, name, type, line): what resolution needs to know a receiver's type —
  var: `name = Type(...)`, `name: Type` or a typed parameter, in function `scope` ("" = module);
  attr: `self.name = Type(...)` (or a class-level `name = Type()`), in class `scope`;
  base: class `scope` derives from `type`; all: `name` is listed in the module's `__all__`.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from core.codemap.captured import read_captures
from core.codemap.imports import PARSERS as IMPORT_PARSERS
from core.codemap.langs import CAPTURED, CLASS_KINDS, QUERIES
from core.codemap.nodes import name_lines, one_per_node, span_of
from core.codemap.pybinds import added_elements, keep_blocks, python_binds
from core.codemap.tsbinds import JS_GRAMMARS, TS_GRAMMARS, ts_binds
from core.codemap.tsexpr import chain_text
from core.codemap.uses import SCOPE_BINDS, Bind, Level, Ref, Symbol, Uses
from core.codemap.values import python_values, star_candidates

_SPACES = re.compile(r"\s+")
_CAPTURE = re.compile(r"@([\w.]+)")
_TYPE_WORDS = frozenset({"Optional", "Union", "None", "Type", "type", "ClassVar", "Final"})
_DOTTED = re.compile(r"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_OWNER_KINDS = CLASS_KINDS - {"module"}
_NOT_SCOPES = frozenset({"variable", "constant", "export"})
_PRIORITY = {"variable": 0, "constant": 0, "export": 0}  # everything else ranks 1
SIGNATURE_CHARS = 160


@cache
def _tools(lang: str) -> tuple[Any, Any, dict[int, str]]:
    """The parser, one query of the language's patterns then its one-capture ones
    (`CAPTURED`), and the capture name of each of those by pattern number: one traversal
    instead of a cursor per query (half the stdlib: 1.7 CPU-s against 2.2)."""
    import tree_sitter as ts
    from tree_sitter_language_pack import get_language, get_parser

    grammar = get_language(lang)
    source = (QUERIES[lang] + CAPTURED.get(lang, "")).encode()
    query = ts.Query(grammar, source.decode())
    bulk: dict[int, str] = {}
    for pattern in range(query.pattern_count):
        at = query.start_byte_for_pattern(pattern)
        if at >= len(QUERIES[lang].encode()):  # one capture per bulk pattern
            text = source[at : query.end_byte_for_pattern(pattern)].decode()
            (bulk[pattern],) = set(_CAPTURE.findall(text))
    return get_parser(lang), query, bulk


def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace")


def _signature(data: bytes, node: Any, body: Any) -> str:
    at = node.start_byte
    start = data.rfind(b"\n", 0, at) + 1  # keep `export `, `pub `, modifiers
    head = data[start:at]
    if b"{" in head or b";" in head or b"}" in head:
        start = at
    body_at = body.start_byte if body is not None else -1
    if body_at > at:
        end = body_at
    else:  # no body captured: the first line, up to an opening brace
        end = data.find(b"\n", at)
        brace = data.find(b"{", at, end if end >= 0 else len(data))
        end = brace if brace >= 0 else end
    if end < 0 or end - start > 600:
        end = min(len(data), start + 600)
    text = _SPACES.sub(" ", data[start:end].decode("utf-8", "replace")).strip()
    text = text.rstrip("{:=").rstrip()
    return text[:SIGNATURE_CHARS]


def _exported(lang: str, node: Any, name: str, top: bool) -> int:
    if lang == "python":
        return int(top and not name.startswith("_"))
    if lang in ("javascript", "typescript", "tsx"):
        parent, hops = node.parent, 0
        while parent is not None and hops < 3:
            if parent.type == "export_statement":
                return 1
            parent, hops = parent.parent, hops + 1
        return 0
    if lang == "go":
        return int(name[:1].isupper())
    if lang == "rust":
        return int(any(c.type == "visibility_modifier" for c in node.children))
    if lang in ("java", "csharp"):
        return int(
            any(
                c.type in ("modifiers", "modifier") and b"public" in (c.text or b"")
                for c in node.children
            )
        )
    if lang == "ruby":
        return int(not name.startswith("_"))
    if lang == "php":
        return int(
            not any(c.type == "visibility_modifier" and c.text != b"public" for c in node.children)
        )
    static = any(c.type == "storage_class_specifier" and c.text == b"static" for c in node.children)
    return int(top and not static)


def _is_constant_field(node: Any) -> bool:
    """Java `static final` or C# `const` / `static readonly` fields; other fields are noise."""
    text = b" ".join(c.text or b"" for c in node.children if c.type in ("modifiers", "modifier"))
    return b"const" in text or (b"static" in text and (b"final" in text or b"readonly" in text))


_ROLES: dict[tuple[str, int], tuple[str, str]] = {}  # (lang, pattern) → (role, capture)


def _role(caps: dict[str, list[Any]]) -> tuple[str, str]:
    for key in caps:
        if key.startswith("def.") or key == "scope":
            return ("def", key)
        if key.startswith("ref."):
            return ("ref", key)
        if key.startswith("bind."):
            return ("bind", key)
        if key in ("import", "script"):
            return (key, key)
    return ("none", "")


class _Collector:
    """Gathers query matches of one file, then nests them into scopes."""

    def __init__(self, lang: str, data: bytes, path: str) -> None:
        self.lang, self.data, self.path = lang, data, path
        self.defs: dict[tuple[int, str], list[Any]] = {}
        self.refs: list[tuple[int, str, int, str, str]] = []
        self.imports: list[Symbol] = []
        self.binds: list[tuple[int, int, str, str, str, int]] = []  # (pos, rank, kind, name, …)
        self.script = data.startswith(b"#!")  # or a statement run at module level (a call)

    def add(self, pattern: int, caps: dict[str, list[Any]]) -> None:
        role = _ROLES.get((self.lang, pattern))
        if role is None:
            role = _ROLES[(self.lang, pattern)] = _role(caps)
        if role[0] == "ref":
            node = caps[role[1]][0]
            receiver = caps.get("receiver")
            if role[1] == "ref.type" and node.parent.type == "nested_type_identifier":
                receiver = [node.parent.child_by_field_name("module")]  # `z.ZodError`: z's
            recv = (
                _SPACES.sub("", receiver[0].text[:80].decode("utf-8", "replace"))[:60]
                if receiver and receiver[0] is not None
                else ""
            )
            if "(" in recv and self.lang in JS_GRAMMARS:  # `z.string().min(1)`: the calls'
                recv = chain_text(receiver[0]) or recv  # arguments left out (tsbinds.py)
            kind = role[1][4:]
            if kind == "attribute" and self.lang == "python":  # `a.f()`: the call's callee
                up = node.parent.parent
                if up is not None and up.type == "call" and up.child(0) == node.parent:
                    kind = "call"
            self.refs.append((node.start_byte, _text(node), node.start_point[0] + 1, kind, recv))
        elif role[0] == "def":
            self._add_def(role[1], caps[role[1]][0], caps)
        elif role[0] == "import":
            self._add_import(caps["import"][0])
        elif role[0] == "bind":
            self._add_bind(role[1][5:], caps[role[1]][0], caps)
        elif role[0] == "script":
            self.script = True

    def _values(self, root: Any) -> list:
        names = {e[2] for e in self.defs.values() if e[3] not in _NOT_SCOPES}
        names |= {s[0] for _, s in self.imports if s[8] not in ("", "*")}
        if any(s[8] == "*" for _, s in self.imports):  # `from m import *`: m's names too
            names |= star_candidates(self.data, {b[3] for b in self.binds if b[2] == "local"})
        taken = {r[0] for r in self.refs} | {e[7] for e in self.defs.values()}
        return python_values(root, self.data, names, taken)

    def _add_bind(self, kind: str, node: Any, caps: dict[str, list[Any]]) -> None:
        text = _text(node)
        if kind in SCOPE_BINDS:  # the name is bound in its function (or lambda/comprehension)
            span = span_of(node) if kind == "span" else ""
            self.binds.append((node.start_byte, 2, kind, text, span, node.start_point[0] + 1))
            return
        if self.lang == "python" and kind != "all":
            self.binds += python_binds(kind, node, caps)
            return
        if kind == "returns":  # `def f() -> Shape`: what a call of f gives
            self.binds.append((node.start_byte, 1, kind, "", type_name_of(text), 0))
            return
        if kind == "narrow":  # `if isinstance(x, Shape):` types x in that block
            block = caps["span"][0]
            lines = f"{block.start_point[0] + 1}-{block.end_point[0] + 1}:"
            typed = type_name_of(_text(caps["type"][0]))
            self.binds.append((node.start_byte, 1, kind, text, lines + typed, 0))
            return
        if kind == "base":
            name, type_name = "", type_name_of(text)
        elif kind == "all":  # a name listed in `__all__` is a reference to what it names
            name, type_name = text, ""
            self.refs.append((node.start_byte, text, node.start_point[0] + 1, "export", ""))
        elif "alias" in caps:  # `x = y`: x holds what y holds
            name, type_name = text, "=" + _SPACES.sub("", _text(caps["alias"][0]))[:80]
        else:
            name, type_name = text, type_name_of(_text(caps["type"][0])) if "type" in caps else ""
        if kind == "all" or type_name:
            declared = "type" in caps and _is_annotation(caps["type"][0])
            rank = 0 if declared else 1  # `x: Base = Derived()`: the declared type comes first
            self.binds.append(
                (node.start_byte, rank, kind, name, type_name, node.start_point[0] + 1)
            )

    def _add_def(self, key: str, node: Any, caps: dict[str, list[Any]]) -> None:
        names = caps.get("name")
        if not names:
            return
        name = _text(names[0])
        kind = "scope" if key == "scope" else key[4:]
        if kind == "constant" and self.lang in ("java", "csharp") and not _is_constant_field(node):
            return
        if kind == "variable" and name.isupper():  # MAX_SIDES = 12
            kind = "constant"
        qual = caps.get("qualifier")
        body = caps.get("body")
        entry = [
            node.start_byte,
            node.end_byte,
            name,
            kind,
            node,
            body[0] if body else None,
            _text(qual[0]) if qual else "",
            names[0].start_byte,
        ]
        slot = (node.start_byte, name)
        old = self.defs.get(slot)
        if old is None or _PRIORITY.get(old[3], 1) < _PRIORITY.get(kind, 1):
            self.defs[slot] = entry

    def _add_import(self, node: Any) -> None:
        line = node.start_point[0] + 1
        end = self.data.find(b"\n", node.start_byte)
        sig = _SPACES.sub(
            " ",
            self.data[node.start_byte : end if end >= 0 else node.end_byte].decode(
                "utf-8", "replace"
            ),
        ).strip()[:SIGNATURE_CHARS]
        found = IMPORT_PARSERS[self.lang](node, self.path)
        lines = name_lines(node) if node.end_point[0] > node.start_point[0] and found else {}
        for local, key, orig in found:
            last = max(line, node.end_point[0] + (1 if node.end_point[1] else 0))
            symbol = (local, "import", lines.get(local, line), last, "", sig, 0, key, orig)
            self.imports.append((node.start_byte, symbol))

    def finish(self, root: Any = None) -> tuple[list[Symbol], list[Ref], list[Bind]]:
        symbols: list[Symbol] = []
        named = {e[7] for e in self.defs.values() if e[3] != "export"}  # a definition's own
        # name is no reference (`export { a }` is one: a use of a, as the compiler counts)
        self.refs = [r for r in one_per_node(self.refs) if r[0] not in named]
        if self.lang == "python" and root is not None:
            self.refs += self._values(root)
            self.binds += added_elements(root, self.refs)
        binds = self.binds
        if not any(s[0] == "*" for _, s in self.imports):  # a local hides only a file's name
            names = {e[2] for e in self.defs.values()} | {s[0] for _, s in self.imports}
            binds = [b for b in binds if b[2] not in SCOPE_BINDS or b[3] in names]
        uses = Uses(self.refs, binds, self.imports)
        events = sorted(self.defs.values(), key=lambda e: (e[0], -e[1]))
        stack: list[Level] = []  # (end_byte, qualified name, kind, function, class)
        for start, end, name, kind, node, body, qual, _ in events:
            uses.emit_before(start, stack)
            uses.leave(stack, start)
            scope = stack[-1][1] if stack else ""
            top = not stack
            if qual:
                scope = f"{scope}.{qual}" if scope else qual
            if kind == "function" and (qual or (stack and stack[-1][2] in _OWNER_KINDS)):
                kind = "method"
            qualified = f"{scope}.{name}" if scope else name
            if kind not in _NOT_SCOPES:  # `a = b = 1`: b is no member of a
                level = "class" if kind == "scope" else kind
                func, owner = (stack[-1][3], stack[-1][4]) if stack else ("", "")
                if level in CLASS_KINDS:
                    owner = qualified
                else:
                    func = qualified
                stack.append((end, qualified, level, func, owner))
                uses.entered(start, func)
            if kind == "scope" or (kind == "variable" and self.script and not scope):
                continue  # a script's variables are its statements, not an interface
            end_row, end_column = node.end_point
            first = node.start_point[0] + 1
            last = end_row + (1 if end_column else 0)
            symbols.append(
                (
                    name,
                    kind,
                    first,
                    max(last, first),
                    scope,
                    _signature(self.data, node, body),
                    _exported(self.lang, node, name, top),
                    "",
                    "",
                )
            )
        uses.emit_before(len(self.data) + 1, stack)
        uses.leave(stack, len(self.data) + 1)
        binds = keep_blocks(uses.binds) if self.lang == "python" else uses.binds
        if not any(s[0] == "*" for s in uses.imports):  # only names that can shadow matter
            module = {s[0] for s in symbols} | {s[0] for s in uses.imports}
            binds = [b for b in binds if b[0] not in SCOPE_BINDS or b[2] in module]
        return _merge_exports(symbols) + uses.imports, uses.scoped_refs(), binds


def _is_annotation(node: Any) -> bool:
    """A type written as a declaration (Python `x: T`, TypeScript `x: T`), not a call's class."""
    parent = node.parent
    return node.type == "type" or (parent is not None and parent.type == "type_annotation")


def type_name_of(text: str) -> str:
    """The class a type expression names: 'Optional[app.Flask]' → 'app.Flask'; '' if none."""
    for word in _DOTTED.findall(text.replace('"', " ").replace("'", " ")):
        if word not in _TYPE_WORDS:
            return word
    return ""


def _merge_exports(symbols: list[Symbol]) -> list[Symbol]:
    """`export { a }` marks the top-level `a` as exported; only re-exports stay as symbols."""
    exports = {s[0] for s in symbols if s[1] == "export"}
    if not exports:
        return symbols
    top = {s[0] for s in symbols if not s[4] and s[1] != "export"}
    return [
        s[:6] + (1,) + s[7:] if s[0] in exports and not s[4] else s
        for s in symbols
        if not (s[1] == "export" and s[0] in top)
    ]


def parse_source(lang: str, data: bytes, path: str) -> tuple[list[Symbol], list[Ref], list[Bind]]:
    """Symbols, references and bindings of one file; `path` (project-relative) resolves
    relative imports."""
    import tree_sitter as ts

    parser, query, bulk = _tools(lang)
    tree = parser.parse(data)
    collector = _Collector(lang, data, path)
    captured: dict[str, list[Any]] = {name: [] for name in bulk.values()}
    for pattern, caps in ts.QueryCursor(query).matches(tree.root_node):
        name = bulk.get(pattern)
        if name is None:
            collector.add(pattern, caps)
        else:
            captured[name] += caps[name]
    if bulk:
        refs, binds = read_captures(captured, data)
        collector.refs += refs
        collector.binds += binds
    if lang in TS_GRAMMARS:
        binds, links = ts_binds(lang, tree.root_node)
        filled = {b[0] for b in binds if b[2] == "base" and "[" in b[4]}  # `Base<Foo>` for `Base`
        collector.binds = [b for b in collector.binds if b[2] != "base" or b[0] not in filled]
        collector.binds += binds
        collector.refs += links
    return collector.finish(tree.root_node)
