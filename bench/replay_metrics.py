"""What one replayed request costs and shows: raw tokens, cache-billed tokens per provider family,
references kept (unpaddable), and the recalls a real model would need for what was thrown away."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, message_text
from my_agent.tokens import estimate_tokens

_REF = re.compile(r"(?:[\w.-]*/)+[\w.-]+|[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+|[A-Za-z_]\w{2,}|\d{2,}")
_CODE_LIKE = re.compile(r"_|[a-z][A-Z]|[A-Za-z]\d|[./]")
_FILE = re.compile(r"[\w.-]*\w\.[A-Za-z]\w*")  # a file name with an extension
_NUMBERED = re.compile(r"^\s*(\d+)(?:\t|→|:|-|\s+\|| {1,2}\S)")  # cat -n, Read, nl, grep -n, open
_GREP = re.compile(r"^\.?/?((?:[\w.-]+/)*[\w.-]+\.\w+)[:-](\d+)[:-]")  # grep -n: path:line:
_FILE_LINE = re.compile(r"([\w.-]+\.\w+):(\d+)")  # a fact line's `file.py:42 name`
_OUTLINE = re.compile(r"([A-Za-z_][\w.]*) \(l\.(\d+(?:, \d+)*)\)")  # `name (l.42, 80)`
_SED_VIEW = re.compile(r"sed -n ['\"]?(\d+),\d+p")
_PLAIN_VIEW = re.compile(
    r"^(?:cd \S+ && )?(?:cat|head(?: -n)? ?-?\d*) +[\w./-]+\.\w+(?: *\| *head(?: -n)? ?-?\d+)? *$"
)
_WRAPPER = ("<returncode>", "<output>", "</output>")
CACHE_TTL = 300.0  # seconds of idle after which a provider's prompt cache has expired
RECALL_CALL = 20  # tokens of the recall call and its framing


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
    """One output line a reference appeared on; `base:line` when the line has a file position."""

    call_id: str
    line: str
    base: str = ""
    number: int = 0


@dataclass
class Shown:
    """What one message shows: its tokens, its lines, and its `file:line` facts per reference."""

    tokens: int
    lines: frozenset[str]
    positions: frozenset[tuple[str, str, int]]


def line_positions(line: str) -> set[tuple[str, str, int]]:
    """(reference, file, line) a fact line states: `file.py:42 name` (the names up to the next
    position), or `name (l.42)` in a line naming the file."""
    found = set()
    marks = list(_FILE_LINE.finditer(line))
    ends = [m.start() for m in marks[1:]] + [len(line)] * bool(marks)
    for mark, end in zip(marks, ends, strict=True):
        segment = line[mark.end() : end]
        found.update((ref, mark[1], int(mark[2])) for ref in refs(segment))
    bases = {name.rsplit("/", 1)[-1] for name in _FILE.findall(line)}
    for name, numbers in _OUTLINE.findall(line):
        for number in numbers.split(", "):
            found.update((name, base, int(number)) for base in bases)
    return found


def shown(msg: Message) -> Shown:
    text = plain_text(msg)
    lines = frozenset(line.strip() for line in text.splitlines() if line.strip())
    positions = set()
    for line in lines:
        if ":" in line or "(l." in line:
            positions |= line_positions(line)
    return Shown(estimate_tokens(message_text(msg)) + 4, lines, frozenset(positions))


def view_start(arguments: str) -> int:
    """The file line an unnumbered view of one file starts at (`sed -n 'A,Bp'`, `cat`, `head`);
    0 when the output is not a plain view of a file."""
    if re.search(r"\b(?:grep|awk|nl|tail|cut|sort)\b", arguments):
        return 0
    sed = _SED_VIEW.search(arguments)
    if sed:
        return int(sed[1])
    return 1 if _PLAIN_VIEW.match(arguments.strip()) else 0


class Provenance:
    """Where each reference first appeared (a tool output, or the task / model's text), and
    the output lines that carry it, with their file positions."""

    MAX_SOURCES = 8

    def __init__(self) -> None:
        self.origin: dict[str, str] = {}
        self.sources: dict[str, list[Source]] = {}
        self.tokens: dict[str, int] = {}  # call id -> output tokens (what a recall returns)
        self.last_output: dict[str, str] = {}  # reference -> the latest output showing it
        self.lines: dict[str, list[str]] = {}  # call id -> its output's lines

    def note(
        self,
        msg: Message,
        calls: dict[str, ToolCall] | None = None,
        known: Callable[[str], bool] | None = None,
    ) -> None:
        """Record one message. A line of the model's own naming an output's reference shows it
        later too, when the model could have written it: `known(ref)` (it saw or recalled it)."""
        for block in msg.blocks:
            if isinstance(block, ToolResult):
                call = (calls or {}).get(block.call_id)
                self._output(block, plain(call.arguments) if call else "")
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

    def _output(self, result: ToolResult, arguments: str) -> None:
        self.tokens[result.call_id] = estimate_tokens(result.content) + 4
        named = _FILE.findall(arguments)
        base = named[0].rsplit("/", 1)[-1] if named else ""
        self.lines[result.call_id] = [x.strip() for x in result.content.splitlines() if x.strip()]
        for line in result.content.splitlines():
            found = refs(line)
            if not found:
                continue
            grep, numbered = _GREP.match(line), _NUMBERED.match(line)
            if grep:
                source = Source(
                    result.call_id, line.strip(), grep[1].rsplit("/", 1)[-1], int(grep[2])
                )
            elif numbered and base:
                source = Source(result.call_id, line.strip(), base, int(numbered[1]))
            else:
                source = Source(result.call_id, line.strip())
            for ref in found:
                self.origin.setdefault(ref, "output")
                self.last_output[ref] = result.call_id
                self._add(ref, source)

    def _add(self, ref: str, source: Source) -> None:
        kept = self.sources.setdefault(ref, [])
        if source not in kept:
            kept.append(source)
            del kept[: -self.MAX_SOURCES]

    def needed_by(self, action: Message) -> set[str]:
        """References the action's tool calls use that only an earlier tool output introduced."""
        used = set()
        for call in action.tool_calls:
            used |= refs(plain(call.arguments))
        return {r for r in used if self.origin.get(r) == "output"}


@dataclass
class Meter:
    """Counts requests of one policy over one recording, with memoized per-message views."""

    fixed_tokens: int  # system prompt + tool schemas: sent first in every request
    tally: Tally = field(default_factory=Tally)
    previous: list[str] = field(default_factory=list)
    previous_time: float = 0.0
    present: set[str] = field(default_factory=set)  # the last request's message texts
    _shown: dict[str, Shown] = field(default_factory=dict)
    _lines: dict[str, list[str]] = field(default_factory=dict)  # line -> texts showing it
    _positions: dict[tuple[str, str, int], list[str]] = field(default_factory=dict)

    def view(self, msg: Message, text: str) -> Shown:
        if text not in self._shown:
            self._shown[text] = view = shown(msg)
            for line in view.lines:
                self._lines.setdefault(line, []).append(text)
            for position in view.positions:
                self._positions.setdefault(position, []).append(text)
        return self._shown[text]

    def sees(self, ref: str, origin: Provenance) -> bool:
        """Kept only when a line it came from, or a `file:line` fact naming it, is visible in
        the last request."""
        for source in origin.sources.get(ref, ()):
            if any(t in self.present for t in self._lines.get(source.line, ())):
                return True
            if source.base and any(
                t in self.present
                for t in self._positions.get((ref, source.base, source.number), ())
            ):
                return True
        return False

    def shows(self, call_id: str, origin: Provenance) -> bool:
        """Some line of that output is visible (an empty output needs nothing)."""
        lines = origin.lines.get(call_id, ())
        return not lines or any(
            t in self.present for line in lines for t in self._lines.get(line, ())
        )

    def request(
        self,
        messages: list[Message],
        needed: set[str],
        origin: Provenance,
        when: float = 0.0,
        latest: tuple[str, ...] = (),
    ) -> None:
        """One request. `needed`: references the recorded call uses; `latest`: the outputs it
        answered, which the recorded call was decided on (unseen ones cost a recall too)."""
        texts = [message_text(m) for m in messages]
        views = [self.view(m, t) for m, t in zip(messages, texts, strict=True)]
        self.present = set(texts)
        same = 0
        while same < min(len(texts), len(self.previous)) and texts[same] == self.previous[same]:
            same += 1
        expired = bool(when and self.previous_time and when - self.previous_time > CACHE_TTL)
        prefix = 0 if expired or not self.previous else self.fixed_tokens
        prefix += 0 if expired else sum(v.tokens for v in views[:same])
        total = self.fixed_tokens + sum(v.tokens for v in views)
        self.tally.requests += 1
        self.tally.raw += total
        self.tally.fresh += total - prefix
        for family in FAMILIES:
            self.tally.billed[family.name] += price(family, total, prefix)
        self.tally.peak = max(self.tally.peak, total)
        self.previous, self.previous_time = texts, when or self.previous_time
        missing = {r for r in needed if not self.sees(r, origin)}
        self.tally.refs_needed += len(needed)
        self.tally.refs_seen += len(needed) - len(missing)
        unseen = {c for c in latest if not self.shows(c, origin)}
        self.recall(total, {origin.last_output[r] for r in missing} | unseen, origin)

    def recall(self, total: int, calls: set[str], origin: Provenance) -> None:
        """One more request per output needed again: the context at the cached price, the
        recalled output fresh."""
        for call_id in calls:
            out = origin.tokens.get(call_id, 0) + RECALL_CALL
            self.tally.recalls += 1
            self.tally.raw += total + out
            for family in FAMILIES:
                cost = price(family, total + out, total)
                self.tally.billed[family.name] += cost
                self.tally.recall_billed[family.name] += cost
