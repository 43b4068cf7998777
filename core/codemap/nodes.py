"""Small questions the parser asks about syntax nodes: the lines a lambda or a comprehension
spans, the line of each name in a statement over several lines, one reference per node."""

from __future__ import annotations

from typing import Any

_SPANNING = frozenset(
    {
        "lambda",
        "list_comprehension",
        "set_comprehension",
        "dictionary_comprehension",
        "generator_expression",
    }
)


def span_of(node: Any) -> str:
    """'first-last': the lines of the lambda or comprehension a name is bound in."""
    while node is not None and node.type not in _SPANNING:
        node = node.parent
    if node is None:
        return ""
    return f"{node.start_point[0] + 1}-{node.end_point[0] + 1}"


def name_lines(node: Any) -> dict[str, int]:
    """The line of each name in a statement written over several lines (its last mention)."""
    out: dict[str, int] = {}
    stack = [node]
    while stack:
        cur = stack.pop()
        if cur.child_count == 0:
            if cur.type in ("identifier", "type_identifier", "property_identifier"):
                out[cur.text.decode("utf-8", "replace")] = cur.start_point[0] + 1
        else:
            stack.extend(cur.children)
    return out


_RANK = {"attribute": 0, "call": 1}  # a decorator's or a base's name outranks the call


def one_per_node(refs: list) -> list:
    """A name matched by several patterns is one reference: a decorator's or a base's rather
    than a call's, a call's rather than the bare attribute's."""
    best: dict[int, tuple] = {}
    for ref in refs:
        kept = best.get(ref[0])
        if kept is None or _RANK.get(kept[3], 2) < _RANK.get(ref[3], 2):
            best[ref[0]] = ref
    return list(best.values()) if len(best) < len(refs) else refs
