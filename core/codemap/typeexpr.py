"""Python type expressions as the index stores them, and as the resolver takes them apart.

An annotation is written down once, when its file is parsed, in a small normal form: names
(dotted), `|` between the members of a union, `name[a,b]` for a generic; `None`, `Any`, quotes,
`Optional`, `Union`, `Annotated`, `ClassVar`, `Final` are gone (`Optional["Foo"]` → `Foo`,
`Union[A, "B"]` → `A|B`, `dict[str, list[Foo]]` → `dict[str,list[Foo]]`); an argument that
says nothing is `?`. The resolver splits that form again with `members` and `generic`, and an expression written
as a chain (`a.b(x)[0].c`) into its steps with `steps`.
"""

from __future__ import annotations

import re
from functools import lru_cache

_TOKEN = re.compile(
    r"""\s*(?:([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)|("[^"]*"|'[^']*')|(\.\.\.|-?\d[\w.]*|.))"""
)
_UNIONS = frozenset({"Optional", "Union"})
_FIRST = frozenset({"Annotated", "ClassVar", "Final", "Required", "NotRequired", "ReadOnly"})
_NOTHING = frozenset({"None", "Any", "Literal", "Callable", "TypeAlias", "NoReturn", "Never"})
_MAX = 200  # characters of an annotation read


@lru_cache(maxsize=8192)
def type_expr(text: str) -> str:
    """The normal form of an annotation ('' when it names nothing to look up)."""
    tokens = [t for t in _TOKEN.findall(text[:_MAX]) if any(t)]
    if not tokens:
        return ""
    reader = _Reader(tokens)
    try:
        found = reader.union()
    except (IndexError, ValueError):
        return ""
    return "" if found == "?" else found


class _Reader:
    """Recursive descent over the tokens: union := term ('|' term)*; term := name [args]."""

    def __init__(self, tokens: list[tuple[str, str, str]]) -> None:
        self.tokens = tokens
        self.at = 0

    def peek(self) -> str:
        if self.at >= len(self.tokens):
            return ""
        name, string, other = self.tokens[self.at]
        return name or string or other

    def take(self) -> tuple[str, str, str]:
        self.at += 1
        return self.tokens[self.at - 1]

    def union(self) -> str:
        members = [self.term()]
        while self.peek() == "|":
            self.take()
            members.append(self.term())
        return join_union(members)

    def term(self) -> str:
        name, string, other = self.take()
        if string:
            return type_expr(string[1:-1])
        if other in ("(", "["):  # a tuple of types (`isinstance(x, (A, B))`) or a parameter list
            members = self.args(")" if other == "(" else "]")
            return join_union(members) if other == "(" else "?"
        if not name:
            if other[:1].isdigit() or other[:1] == "-" or other == "...":
                return "?"  # `Annotated[Foo, 3]`'s metadata
            raise ValueError(other)
        name = re.sub(r"\s+", "", name)
        base = name.rsplit(".", 1)[-1]
        args = self.args("]") if self.peek() == "[" and self.take() else None
        if base in _NOTHING:
            return "?"
        if args is None:
            return name
        if base in _UNIONS:
            return join_union(args)
        if base in _FIRST:
            return args[0] if args else "?"
        return f"{name}[{','.join(args)}]"

    def args(self, close: str) -> list[str]:
        out: list[str] = []
        while self.peek() != close:
            if self.peek() in ("...",):
                self.take()
                continue
            out.append(self.union())
            if self.peek() == ",":
                self.take()
            elif self.peek() != close:
                raise ValueError(self.peek())
        self.take()
        return out


def join_union(members: list[str]) -> str:
    """`A|B` from the members, each once, without the ones that name nothing."""
    flat: list[str] = []
    for member in members:
        for one in split_top(member, "|"):
            if one and one != "?" and one not in flat:
                flat.append(one)
    return "|".join(flat) if flat else "?"


@lru_cache(maxsize=4096)
def split_top(text: str, sep: str) -> tuple[str, ...]:
    """`text` split at `sep` outside brackets and parentheses."""
    out: list[str] = []
    depth = 0
    start = 0
    for at, char in enumerate(text):
        if char in "[(":
            depth += 1
        elif char in "])":
            depth -= 1
        elif char == sep and depth == 0:
            out.append(text[start:at])
            start = at + 1
    out.append(text[start:])
    return tuple(out)


def members(text: str) -> tuple[str, ...]:
    """The members of a union (one member when it is none)."""
    return split_top(text, "|")


_GENERIC = re.compile(r"([A-Za-z_][\w.]*)\[(.*)\]")


def generic(text: str) -> tuple[str, tuple[str, ...]] | None:
    """'dict[str,Foo]' → ('dict', ('str', 'Foo')); None when `text` is no generic."""
    found = _GENERIC.fullmatch(text)
    if found is None:
        return None
    return found.group(1), split_top(found.group(2), ",")


_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_CLOSE = {"(": ")", "[": "]"}


def steps(text: str) -> list[tuple[str, str]] | None:
    """'a.b(x)[0].c' → [('name','a'), ('attr','b'), ('call','x'), ('index','0'),
    ('attr','c')]; None when the text is not such a chain (or was cut short)."""
    found = _NAME.match(text)
    if found is None:
        return None
    out = [("name", found.group())]
    at = found.end()
    while at < len(text):
        char = text[at]
        if char == ".":
            found = _NAME.match(text, at + 1)
            if found is None:
                return None
            out.append(("attr", found.group()))
            at = found.end()
        elif char in _CLOSE:
            end = _matching(text, at)
            if end < 0:
                return None
            out.append(("call" if char == "(" else "index", text[at + 1 : end]))
            at = end + 1
        else:
            return None
    return out


def _matching(text: str, at: int) -> int:
    depth = 0
    for here in range(at, len(text)):
        if text[here] in "([{":
            depth += 1
        elif text[here] in ")]}":
            depth -= 1
            if depth == 0:
                return here
    return -1
