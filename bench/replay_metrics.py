"""What the replay counts with: prices per provider family, references (paths, identifiers,
numbers) and the lines they came from, and the tally of one policy's requests."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, message_text
from my_agent.tokens import estimate_tokens

_REF = re.compile(r"(?:[\w.-]*/)+[\w.-]+|[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+|[A-Za-z_]\w{2,}|\d{2,}")
_CODE_LIKE = re.compile(r"_|[a-z][A-Z]|[A-Za-z]\d|[./]")


@dataclass(frozen=True)
class Pricing:
    """Input pricing of one provider family, relative to the fresh-input price."""

    name: str
    read: float  # cached prefix
    write: float  # uncached rest (Anthropic writes it to the cache at a premium)
    min_cached: int  # shorter prefixes are not cached
    block: int  # the cached prefix is counted in whole blocks of this many tokens


# Anthropic: explicit breakpoints, read 0.1x, write 1.25x. OpenAI-style automatic prefix
# caching (OpenAI, DeepSeek, GLM): read 0.5x (OpenAI's gpt-4o-era discount; DeepSeek and
# gpt-5 charge ~0.1x, so 0.5x is the cautious end), no write premium, 128-token blocks.
ANTHROPIC = Pricing("anthropic", 0.1, 1.25, 1024, 1)
OPENAI = Pricing("openai", 0.5, 1.0, 1024, 128)
FAMILIES = (ANTHROPIC, OPENAI)


def price(family: Pricing, total: int, prefix: int) -> float:
    cached = 0 if prefix < family.min_cached else prefix // family.block * family.block
    return family.read * cached + family.write * (total - cached)


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
    billed: dict[str, float] = field(default_factory=lambda: {f.name: 0.0 for f in FAMILIES})
    refs_needed: int = 0
    refs_seen: int = 0
    recalls: int = 0
    compactions: int = 0
    peak: int = 0
    recall_billed: dict[str, float] = field(default_factory=lambda: {f.name: 0.0 for f in FAMILIES})
    fresh: float = 0.0  # tokens sent past the cached prefix (requests only, recalls apart)

    def add(self, other: Tally) -> None:
        names = ("requests", "raw", "refs_needed", "refs_seen", "recalls", "compactions", "fresh")
        for name in names:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for family, value in other.billed.items():
            self.billed[family] += value
            self.recall_billed[family] += other.recall_billed[family]
        self.peak = max(self.peak, other.peak)

    @property
    def retention(self) -> float:
        return self.refs_seen / self.refs_needed if self.refs_needed else 1.0


@dataclass(frozen=True)
class Source:
    """One line a reference appeared on: of an output (`call_id`), or the model's own."""

    call_id: str
    line: str


@dataclass
class Shown:
    """What one message shows: its tokens and its lines."""

    tokens: int
    lines: frozenset[str]


def shown(msg: Message) -> Shown:
    text = plain_text(msg)
    lines = frozenset(line.strip() for line in text.splitlines() if line.strip())
    return Shown(estimate_tokens(message_text(msg)) + 4, lines)


class Provenance:
    """Where each reference first appeared (a tool output, or the task / model's text), and
    the output lines that carry it, with their file positions."""

    MAX_SOURCES = 8  # per kind: an output's lines, the model's own (one never evicts the other)

    def __init__(self) -> None:
        self.origin: dict[str, str] = {}
        self.sources: dict[str, list[Source]] = {}
        self.tokens: dict[str, int] = {}  # call id -> output tokens (what a recall returns)
        self.last_output: dict[str, str] = {}  # reference -> the latest output showing it
        self.lines: dict[str, list[str]] = {}  # call id -> its output's lines
        self.contents: dict[str, str] = {}  # call id -> its output (what a recall returns)

    def note(self, msg: Message, known: Callable[[str], bool] | None = None) -> None:
        """Record one message. A line of the model's own naming an output's reference shows it
        later too, when the model could have written it: `known(ref)` (it saw or recalled it)."""
        for block in msg.blocks:
            if isinstance(block, ToolResult):
                self._output(block)
                continue
            if isinstance(block, ToolCall):
                text = plain(block.arguments)
            elif isinstance(block, TextBlock):
                text = block.text
            else:
                continue
            for line in text.splitlines():
                for ref in refs(line):
                    self.origin.setdefault(ref, "model")
                    if ref in self.sources and (known is None or known(ref)):
                        self._add(ref, Source("", line.strip()))

    def _output(self, result: ToolResult) -> None:
        self.tokens[result.call_id] = estimate_tokens(result.content) + 4
        self.contents[result.call_id] = result.content
        self.lines[result.call_id] = [x.strip() for x in result.content.splitlines() if x.strip()]
        for line in result.content.splitlines():
            found = refs(line)
            if not found:
                continue
            source = Source(result.call_id, line.strip())
            for ref in found:
                self.origin.setdefault(ref, "output")
                self.last_output[ref] = result.call_id
                self._add(ref, source)

    def _add(self, ref: str, source: Source) -> None:
        kept = self.sources.setdefault(ref, [])
        if source in kept:
            return
        kept.append(source)
        same = [s for s in kept if bool(s.call_id) == bool(source.call_id)]
        if len(same) > self.MAX_SOURCES:  # the oldest of its kind goes
            kept.remove(same[0])

    def needed_by(self, action: Message) -> set[str]:
        """References the action's tool calls use that only an earlier tool output introduced."""
        used = set()
        for call in action.tool_calls:
            used |= refs(plain(call.arguments))
        return {r for r in used if self.origin.get(r) == "output"}
