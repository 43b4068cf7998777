"""The baselines people may prefer (`--context-policy masking|full`), as ContextPolicy objects:
observation masking (keep the last outputs, mask the older ones in batches) and the whole
history. Both archive every output for `recall` and crop only to fit the window."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from core.context.archive import Archive
from core.context.budget import ContextBudget
from core.context.cache_policy import CacheAwareContext
from core.context.policy import Calibration, Summarizer
from core.context.summary import crop_to_fit
from core.facts import RULES, Rule
from my_agent.messages import Message, ToolCall, ToolResult, message_text
from my_agent.tokens import estimate_tokens

CONTEXT_POLICIES = ("ours", "masking", "full")


class ObservationMasking:
    """ContextPolicy: whenever the unmasked outputs before the last `keep` pass `trigger_tokens`,
    all of them become `[output archived #id, N tokens]` at once, so the prefix stays cached
    between batches. `trigger_tokens=None`: never masks (the full history)."""

    NOT_STATE = ("archive", "budget", "keep", "trigger", "count", "summarize")  # state.py

    def __init__(
        self,
        archive: Archive | None = None,
        budget: ContextBudget | None = None,
        keep: int = 3,
        trigger_tokens: int | None = 10_000,
        count: Callable[[str], int] = estimate_tokens,
    ) -> None:
        self.archive = archive if archive is not None else Archive()
        self.budget = budget or ContextBudget()
        self.keep, self.trigger, self.count = keep, trigger_tokens, count
        self.summarize: Summarizer | None = None  # unused: masking is the compaction
        self.ratio = 1.0
        self.calibration = Calibration()
        self.compactions = 0
        self.crops = 0
        self.last_estimate = 0
        self.tokens: dict[str, int] = {}
        self.masked: dict[str, str] = {}  # call id -> its placeholder
        self.entries: dict[str, str] = {}  # call id -> archive id

    def on_tool_result(self, call: ToolCall, output: object) -> None:
        content = str(getattr(output, "content", ""))
        full = (getattr(output, "data", None) or {}).get("full_output") or content
        target = str(next(iter(call.arguments.values()), "")) if call.arguments else ""
        entry = self.archive.add(call.name, target[:200], str(full), call_id=call.id)
        self.tokens[call.id] = self.count(content)
        self.masked.pop(call.id, None)
        self.entries[call.id] = entry

    def messages_for_request(self, history: list[Message]) -> list[Message]:
        ids = [b.call_id for m in history for b in m.tool_results]
        older = [i for i in ids[: len(ids) - self.keep] if i not in self.masked]
        if self.trigger is not None and older:
            if sum(self.tokens.get(i, 0) for i in older) >= self.trigger:
                for call_id in older:
                    entry = self.entries.get(call_id, call_id)
                    size = self.tokens.get(call_id, 0)
                    self.masked[call_id] = f"[output archived #{entry}, {size} tokens]"
                self.compactions += 1
        view = self.view(history)
        room = self.budget.window_tokens - self.budget.reserve_tokens - self.budget.overhead_tokens
        if self.tokens_of(view) > room:
            self.crops += 1
            view = crop_to_fit(view, room, self._count_msg)
        self.last_estimate = self.tokens_of(view)
        return view

    def view(self, history: list[Message]) -> list[Message]:
        return [
            Message(
                m.role,
                [
                    replace(b, content=self.masked[b.call_id])
                    if isinstance(b, ToolResult) and b.call_id in self.masked
                    else b
                    for b in m.blocks
                ],
            )
            for m in history
        ]

    def compact(self, history: list[Message], summarize: Summarizer) -> str:
        return ""  # masking has no summary; its batches are the compaction

    def on_overflow(self, history: list[Message]) -> bool:
        return False  # the comparison baseline: no extra compaction of its own

    def tokens_of(self, messages: list[Message]) -> int:
        return sum(self._count_msg(m) for m in messages)

    def _count_msg(self, msg: Message) -> int:
        return int((self.count(message_text(msg)) + 4) * self.ratio)

    def observe_usage(self, reported_input: int) -> None:
        self.calibration.observe(int(self.last_estimate / self.ratio), reported_input)
        estimate = self.last_estimate / self.ratio + self.budget.overhead_tokens
        if reported_input > 0 and estimate > 500:
            seen = reported_input / estimate
            self.ratio = max(0.5, min(2.0, 0.7 * self.ratio + 0.3 * seen))

    @property
    def phase(self) -> str:
        return ""

    @property
    def window_tokens(self) -> int:
        return self.budget.window_tokens


def context_policy(
    kind: str,
    archive: Archive,
    budget: ContextBudget,
    summarize: Summarizer | None = None,
    rules: Mapping[str, Rule] = RULES,
    pinned: Callable[[], str] = str,
) -> CacheAwareContext | ObservationMasking:
    """The session's policy by name: ours (the default), masking (keep 3, every 10k) or full.
    `pinned` (the todo list) is kept whole in ours' L0 and summary."""
    if kind not in CONTEXT_POLICIES:
        raise ValueError(
            f"unknown context policy {kind!r} (expected: {', '.join(CONTEXT_POLICIES)})"
        )
    if kind == "ours":
        return CacheAwareContext(archive, budget, summarize, rules=rules, pinned=pinned)
    trigger = 10_000 if kind == "masking" else None
    return ObservationMasking(archive, budget, keep=3, trigger_tokens=trigger)
