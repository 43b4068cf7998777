"""The safety net: an LLM-written structured summary, and a hard crop as the last resort."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from my_agent.errors import UnicumError
from my_agent.messages import Message, TextBlock, ToolResult, message_text, user_text

if TYPE_CHECKING:
    pass


SUMMARY_SYSTEM = (
    "You compress a coding session so work can continue without it. Write a structured summary "
    "with these headings, terse and exact (paths, names, numbers, commands):\n"
    "## Task\n## Decisions\n## Files changed\n## Open todo\n## Test status\n"
    "Do not invent anything that is not in the transcript."
)


SUMMARY_MAX_OUTPUT = 2_000


CROP_NOTE = "[{n} earlier messages were cropped to fit the context window]"


def user_texts(messages: list[Message]) -> list[str]:
    """What the person typed (not tool results): it survives every compaction verbatim."""
    return [m.text for m in messages if m.role == "user" and m.text and not m.tool_results]


@dataclass
class SummaryState:
    upto: int = 0  # history[:upto] is replaced by one summary message
    text: str = ""
    requests: list[str] = field(default_factory=list)  # the user's own messages, kept verbatim

    def apply(self, view: list[Message]) -> list[Message]:
        if not self.upto or not self.text:
            return view
        head = [TextBlock(t) for t in self.requests[:1]]
        later = "\n".join(f"- {t[:2000]}" for t in self.requests[1:])
        note = f"[Summary of the session so far]\n{self.text}"
        if later:
            note += f"\n\n[Later requests from the user, verbatim]\n{later}"
        return [Message("user", [*head, TextBlock(note)]), *view[self.upto :]]


def transcript(messages: list[Message], room: int, count: Callable[[Message], int]) -> str:
    """The messages as text, within `room` tokens: the first (the task) and the newest win."""
    rows = [message_text(m) for m in messages]
    sizes = [count(m) for m in messages]
    if sum(sizes) <= room:
        return "\n\n".join(rows)
    kept, used = [], sizes[0]
    for row, size in zip(reversed(rows[1:]), reversed(sizes[1:]), strict=True):
        if used + size > room:
            break
        kept.append(row)
        used += size
    first = rows[0][: room * 2]
    skipped = len(rows) - 1 - len(kept)
    return "\n\n".join([first, f"[{skipped} messages omitted]", *reversed(kept)])


def summarize_history(
    older: list[Message],
    upto: int,
    summarize: Callable[[list[Message]], str],
    room: int,
    count: Callable[[Message], int],
    requests: list[str],
) -> SummaryState:
    """Ask for a summary of `older` in a request that fits `room` tokens with its reply."""
    budget = max(1_000, room - SUMMARY_MAX_OUTPUT - 500)
    text = transcript(older, budget, count)
    summary = summarize([user_text("Summarize this coding session transcript:\n\n" + text)])
    if not summary.strip():
        raise UnicumError("compaction failed: the summary came back empty; nothing was changed")
    return SummaryState(upto=upto, text=summary.strip(), requests=requests)


def crop_to_fit(view: list[Message], limit: int, count: Callable[[Message], int]) -> list[Message]:
    """Drop whole old turns after the first message, then cut oversized results: never splits a
    call from its result, keeps the task."""
    total = sum(count(m) for m in view)
    start = 1
    while total > limit and start < len(view) - 1:
        end = start + 1
        while end < len(view) and not (
            view[end].role == "assistant" and view[end - 1].role == "user"
        ):
            end += 1
        if end >= len(view):
            break
        total -= sum(count(m) for m in view[start:end])
        start = end
    head = view[0]
    if start > 1:
        note = TextBlock(CROP_NOTE.format(n=start - 1))
        head = Message(head.role, [*head.blocks, note])
    out = [head, *view[start:]]
    if sum(count(m) for m in out) > limit:
        out = [_cut_results(m, limit // max(1, len(out))) for m in out]
    return out


def _cut_results(msg: Message, share: int) -> Message:
    chars = max(400, share * 3)
    blocks = []
    for block in msg.blocks:
        if isinstance(block, ToolResult) and len(block.content) > chars:
            half = chars // 2
            block = ToolResult(
                block.call_id,
                f"{block.content[:half]}\n[… cut to fit …]\n{block.content[-half:]}",
                block.is_error,
            )
        blocks.append(block)
    return Message(msg.role, blocks)
