"""Pure compaction steps: (history, facts, phase, budget) → messages. No state, no model calls."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from core.context.phases import CHANGES
from my_agent.facts import Fact
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult

Counter = Callable[[str], int]
L0_HEADER = "[Progress so far; older tool outputs are archived, recall(id) returns any of them]"


@dataclass
class Compacted:
    """What a compaction event decided; frozen until the next event so the prefix stays cached."""

    results: dict[str, str] = field(default_factory=dict)  # call id -> one-line replacement
    args: dict[str, dict[str, str]] = field(default_factory=dict)  # call id -> arg -> stand-in
    l0_at: int = -1  # history index of the message that carries L0
    l0: str = ""
    texts: dict[str, str] = field(default_factory=dict)  # the model's older text -> its opening


def archived_line(fact: Fact, superseded: bool = False) -> str:
    """`[archived #id] fact`; a call repeated later (same file view, same command) keeps only
    its target here: the later one's line says what it showed."""
    text = fact.render()
    if fact.command and fact.summary:  # the call right before shows the command
        text = f"{'FAIL ' * (not fact.ok)}{fact.path + ': ' if fact.path else '→ '}{fact.summary}"
    if superseded:
        target = "" if fact.command else f"[{fact.tool}] {fact.target} "
        text = f"{'FAIL ' * (not fact.ok)}{target}(repeated later)"
    return f"[archived #{fact.archive_id}] {text}" if fact.archive_id else text


def compact_call(call: ToolCall, stand_ins: dict[str, str]) -> ToolCall:
    args = {k: stand_ins.get(k, v) for k, v in call.arguments.items()}
    return replace(call, arguments=args, raw_arguments="")


def apply(history: list[Message], state: Compacted) -> list[Message]:
    """The history as the request shows it: compacted calls and results, L0 at its anchor."""
    out: list[Message] = []
    for index, msg in enumerate(history):
        blocks = []
        for block in msg.blocks:
            if isinstance(block, ToolResult) and block.call_id in state.results:
                block = replace(block, content=state.results[block.call_id], images=[])
            elif isinstance(block, ToolCall) and block.id in state.args:
                block = compact_call(block, state.args[block.id])
            elif (
                isinstance(block, TextBlock)
                and msg.role == "assistant"
                and (block.text in state.texts)
            ):
                block = TextBlock(state.texts[block.text])
            blocks.append(block)
        if index == state.l0_at and state.l0:
            blocks.append(TextBlock(state.l0))
        out.append(Message(msg.role, blocks) if blocks != msg.blocks else msg)
    return out


def shorten_text(text: str, limit: int, entry_id: str) -> str:
    """The opening of an older text of the model, cut at a line or sentence end when one is
    near, pointing at the archived whole."""
    head = text[:limit]
    cut = max(head.rfind("\n"), head.rfind(". "))
    if cut > limit // 2:
        head = head[: cut + 1]
    return f"{head.rstrip()} [… archived #{entry_id}]"


def boundary_before(history: list[Message], index: int) -> int:
    """The nearest index <= `index` where an assistant turn starts (never splits call/result)."""
    while index > 0 and not (
        history[index].role == "assistant" and history[index - 1].role == "user"
    ):
        index -= 1
    return index


def choose_frontier(
    history: list[Message], result_tokens: dict[str, int], keep_tokens: int, keep_min: int
) -> int:
    """Where the verbatim tail starts: it holds at least `keep_min` tool results and
    `keep_tokens` of their output, and starts on an assistant turn."""
    kept_tokens = kept = 0
    index = len(history)
    while index > 0 and (kept < keep_min or kept_tokens < keep_tokens):
        index -= 1
        for block in history[index].blocks:
            if isinstance(block, ToolResult):
                kept += 1
                kept_tokens += result_tokens.get(block.call_id, 0)
    return boundary_before(history, index)


def pending_tokens(
    history: list[Message], start: int, state: Compacted, result_tokens: dict[str, int]
) -> int:
    """Tool-output tokens from `start` on that no compaction has replaced yet."""
    total = 0
    for msg in history[start:]:
        for block in msg.blocks:
            if isinstance(block, ToolResult) and block.call_id not in state.results:
                total += result_tokens.get(block.call_id, 0)
    return total


def render_l0(facts: list[Fact], phase: str, limit_chars: int = 900, pinned: str = "") -> str:
    """~200 tokens: what changed, what was read, the latest checks. Latest fact per target wins.
    `pinned` (the model's todo list) follows whole, outside the limit."""
    latest: dict[tuple[str, str], Fact] = {}
    for fact in facts:
        key = fact.path or fact.target
        group = "changed" if fact.kind in CHANGES else fact.kind
        latest.pop((group, key), None)
        latest[(group, key)] = fact
    rows = [L0_HEADER, f"Phase: {phase}"]
    changed = [k for (g, k) in latest if g == "changed"]
    read = [k for (g, k) in latest if g == "read"]
    checks = [f for (g, _), f in latest.items() if g in ("test", "run", "build")][-3:]
    if changed:
        rows.append("Changed: " + ", ".join(changed[-12:]))
    if read:
        rows.append("Read: " + ", ".join(read[-12:]))
    for fact in checks:
        rows.append(("Check: " if fact.ok else "Failing: ") + fact.render())
    failures = [f for f in latest.values() if not f.ok and f.kind not in ("test", "run", "build")]
    if failures:
        rows.append("Last error: " + failures[-1].render())
    text = "\n".join(rows)
    text = text if len(text) <= limit_chars else text[: limit_chars - 1] + "…"
    return f"{text}\n{pinned.strip()}" if pinned.strip() else text


def big_args(call: ToolCall, limit_chars: int) -> dict[str, str]:
    """String arguments worth archiving: file contents written, long heredocs, edit strings."""
    return {k: v for k, v in call.arguments.items() if isinstance(v, str) and len(v) > limit_chars}


def arg_stand_in(value: str, entry_id: str) -> str:
    first = value.strip().splitlines()[0][:120] if value.strip() else ""
    lines = value.count("\n") + 1
    return f"{first} … [{lines} lines archived #{entry_id}]"
