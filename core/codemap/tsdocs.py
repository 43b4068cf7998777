"""The references a TypeScript doc comment makes, as the compiler's findReferences counts
them: `{@link Name}`, `{@link Name.member}` and `{@link Name#member}`, `@see Name`, and the names in a tag's type
expression (`@throws {TaskAbortError}`, `@param {Array<Foo>} x`), each as a value
reference (a member's with its owner as the receiver)."""

from __future__ import annotations

import re
from typing import Any

Link = tuple[int, str, int, str, str]  # a reference: (start byte, name, line, kind, receiver)
_NAME = rb"[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*"
_LINK = re.compile(rb"\{@link(?:code|plain)?\s+(" + _NAME + rb"(?:#[A-Za-z_$][\w$]*)?)")
_SEE = re.compile(rb"@see\s+(" + _NAME + rb")")
_TYPED = re.compile(rb"@[A-Za-z]+\s*\{([^{}@]*)\}")  # `@param {Foo} x`, not `{@link …}`
_WORD = re.compile(_NAME)


def doc_links(comment: Any) -> list[Link]:
    """The references above in one comment (a `/** … */` one for all but `{@link}`)."""
    data = comment.text or b""
    spans = [found.span(1) for found in _LINK.finditer(data)]
    if data.startswith(b"/**"):
        spans += [found.span(1) for found in _SEE.finditer(data)]
        for typed in _TYPED.finditer(data):
            start = typed.start(1)
            spans += [(start + w.start(), start + w.end()) for w in _WORD.finditer(typed.group(1))]
    return [link for start, end in sorted(set(spans)) for link in _link(comment, data, start, end)]


def _link(comment: Any, data: bytes, start: int, end: int) -> list[Link]:
    """A member's reference and its owner's (`Foo.run`: run on Foo, and Foo itself)."""
    words = data[start:end].decode("utf-8", "replace").replace("#", ".").split(".")
    at = comment.start_byte + start + len(".".join(words[:-1])) + (len(words) > 1)
    line = comment.start_point[0] + 1 + data.count(b"\n", 0, start)
    out = [(at, words[-1], line, "value", ".".join(words[:-1]))]
    if len(words) > 1:
        out.append((comment.start_byte + start, words[0], line, "value", ""))
    return out
