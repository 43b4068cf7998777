"""What one replayed request costs and shows: raw tokens, cache-billed tokens, references kept."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, message_text
from my_agent.tokens import estimate_tokens

CACHE_READ, CACHE_WRITE = 0.1, 1.25
_REF = re.compile(r"(?:[\w.-]*/)+[\w.-]+|[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+|[A-Za-z_]\w{2,}|\d{2,}")
_CODE_LIKE = re.compile(r"_|[a-z][A-Z]|[A-Za-z]\d|[./]")


def refs(text: str) -> set[str]:
    """Paths, identifiers and numbers a later action could reuse. Identifiers are code-like
    (snake_case, camelCase, dotted, with digits); plain words are not references."""
    found = set()
    for token in _REF.findall(text):
        token = token.removeprefix("./").strip(".")
        if token.isdigit() or (len(token) > 2 and _CODE_LIKE.search(token)):
            found.add(token)
    return found


def plain(value: object) -> str:
    """Argument values as the model typed them (no JSON escapes that would glue words)."""
    if isinstance(value, dict):
        return "\n".join(plain(v) for v in value.values())
    if isinstance(value, list):
        return "\n".join(plain(v) for v in value)
    return str(value)


def plain_text(msg: Message) -> str:
    parts = []
    for block in msg.blocks:
        if isinstance(block, ToolCall):
            parts.append(block.name + "\n" + plain(block.arguments))
        elif isinstance(block, ToolResult):
            parts.append(block.content)
        elif isinstance(block, TextBlock):
            parts.append(block.text)
    return "\n".join(parts)


@dataclass
class Tally:
    requests: int = 0
    raw: float = 0.0
    billed: float = 0.0
    refs_needed: int = 0
    refs_seen: int = 0
    compactions: int = 0
    peak: int = 0

    def add(self, other: Tally) -> None:
        for name in ("requests", "raw", "billed", "refs_needed", "refs_seen", "compactions"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.peak = max(self.peak, other.peak)

    @property
    def retention(self) -> float:
        return self.refs_seen / self.refs_needed if self.refs_needed else 1.0


@dataclass
class Meter:
    """Counts requests of one policy over one recording, with memoized per-message costs."""

    system_tokens: int
    tally: Tally = field(default_factory=Tally)
    previous: list[str] = field(default_factory=list)
    _tokens: dict[str, int] = field(default_factory=dict)
    _refs: dict[str, set[str]] = field(default_factory=dict)

    def text_of(self, msg: Message) -> str:
        return message_text(msg)

    def cost(self, text: str) -> int:
        if text not in self._tokens:
            self._tokens[text] = estimate_tokens(text) + 4
        return self._tokens[text]

    def visible(self, msg: Message, text: str) -> set[str]:
        if text not in self._refs:
            self._refs[text] = refs(plain_text(msg))
        return self._refs[text]

    def request(self, messages: list[Message], needed: set[str]) -> None:
        texts = [self.text_of(m) for m in messages]
        sizes = [self.cost(t) for t in texts]
        same = 0
        while same < min(len(texts), len(self.previous)) and texts[same] == self.previous[same]:
            same += 1
        cached = (self.system_tokens if self.previous else 0) + sum(sizes[:same])
        total = self.system_tokens + sum(sizes)
        self.tally.requests += 1
        self.tally.raw += total
        self.tally.billed += CACHE_READ * cached + CACHE_WRITE * (total - cached)
        self.tally.peak = max(self.tally.peak, total)
        self.previous = texts
        if needed:
            sets = [self.visible(m, t) for m, t in zip(messages, texts, strict=True)]
            self.tally.refs_needed += len(needed)
            self.tally.refs_seen += sum(1 for r in needed if any(r in s for s in sets))


class Provenance:
    """Where each reference first appeared: in a tool output, or in the task / model's text."""

    def __init__(self) -> None:
        self.origin: dict[str, str] = {}

    def note(self, msg: Message) -> None:
        for block in msg.blocks:
            if isinstance(block, ToolResult):
                text, origin = block.content, "output"
            elif isinstance(block, ToolCall):
                text, origin = plain(block.arguments), "model"
            elif isinstance(block, TextBlock):
                text, origin = block.text, "model"
            else:
                continue
            for ref in refs(text):
                self.origin.setdefault(ref, origin)

    def needed_by(self, action: Message) -> set[str]:
        """References the action's tool calls use that only an earlier tool output introduced."""
        used = set()
        for call in action.tool_calls:
            used |= refs(plain(call.arguments))
        return {r for r in used if self.origin.get(r) == "output"}
