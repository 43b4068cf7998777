"""The one-capture patterns of a language (`CAPTURED` in `langs.py`; Python's are in
`pyquery.py`), read in bulk: they run in the same query as the match-by-match patterns (one
traversal of the tree; parse.py), and their nodes are gathered in a list per capture, handed
here whole. Most of a Python
file's references come this way: an `x.name` read takes its receiver and its name from the
node's bytes (one node, not three).

Results are the collector's own tuples: refs (start byte, name, line, kind, receiver) and
binds (start byte, rank, kind, name, span, line).
"""

from __future__ import annotations

import re
from typing import Any

from core.codemap.nodes import span_of

_SPACES = re.compile(r"\s+")
RECEIVER_BYTES, RECEIVER_CHARS = 80, 60
# `x.name(`: the node is a call's callee (tree-sitter's `call function: (attribute)`); read
# from the bytes, not captured: a third of a file's nodes fewer to hand to Python
_CALLED = re.compile(rb"(?:[ \t]|\\\r?\n)*\(")
# ... or a `(` past line breaks and comments, a call only inside brackets: the tree says
_CALLED_ACROSS = re.compile(rb"(?:\s|\\\r?\n|#[^\n]*\n)*\(")  # a comment runs to its line end


def read_captures(caps: dict[str, list[Any]], data: bytes) -> tuple[list[tuple], list[tuple]]:
    """(refs, binds) of one file from the captures of its `CAPTURED` query."""
    refs: list[tuple] = []
    binds: list[tuple] = []
    for node in caps.get("chain.attribute", ()):  # `receiver.name`, the name its last token
        start, end = node.start_byte, node.end_byte
        dot = data.rfind(b".", start, end)  # read in place: a receiver can be long
        name = data[dot + 1 : end].lstrip() if dot > start else b""
        receiver = data[start:dot].rstrip()
        if (
            not name.replace(b"_", b"").isalnum()
            or data.find(b"#", start, end) >= 0
            or receiver[-1:] == b"\\"
        ):
            refs.append(_by_nodes(node, data))  # a comment, a line continuation, non-ASCII
            continue
        recv = receiver[:RECEIVER_BYTES].decode("utf-8", "replace")
        if " " in recv or not recv.isprintable():  # every other whitespace is unprintable
            recv = _SPACES.sub("", recv)
        kind = "call" if data[end : end + 1] == b"(" or _called(node, data) else "attribute"
        line = node.end_point[0] + 1
        refs.append((end - len(name), name.decode(), line, kind, recv[:RECEIVER_CHARS]))
    for key, nodes in caps.items():
        role, _, kind = key.partition(".")
        if role == "ref":
            refs += [(n.start_byte, _text(n), n.start_point[0] + 1, kind, "") for n in nodes]
        elif role == "bind":
            for n in nodes:
                span = span_of(n) if kind == "span" else ""
                binds.append((n.start_byte, 2, kind, _text(n), span, n.start_point[0] + 1))
    return refs, binds


def _called(node: Any, data: bytes) -> bool:
    """Whether the `x.name` node is the callee of a call."""
    end = node.end_byte
    if _CALLED.match(data, end):
        return True
    if not _CALLED_ACROSS.match(data, end):
        return False
    parent = node.parent  # `(x.name\n (1))` is a call; a statement `x.name` then `(1)` is not
    callee = parent.child_by_field_name("function") if parent.type == "call" else None
    return callee is not None and callee.end_byte == end


def _text(node: Any) -> str:
    return node.text.decode("utf-8", "replace")


def _by_nodes(node: Any, data: bytes) -> tuple:
    ident = node.child_by_field_name("attribute")
    receiver = node.child_by_field_name("object")
    text = (receiver.text or b"")[:RECEIVER_BYTES].decode("utf-8", "replace")
    recv = _SPACES.sub("", text)[:RECEIVER_CHARS]
    kind = "call" if _called(node, data) else "attribute"
    return (ident.start_byte, _text(ident), ident.start_point[0] + 1, kind, recv)
