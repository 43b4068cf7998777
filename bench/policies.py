"""The policies the replay compares: naive, the original project's, observation masking, ours."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bench.replay_metrics import refs
from core.context import (
    CacheAwareContext,
    ContextBudget,
    PhaseTracker,
    TaskPhase,
    big_args,
    render_l0,
)
from core.facts import extract
from my_agent.facts import Fact
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, message_text
from my_agent.tokens import estimate_tokens


class Naive:
    """The whole history, as mini-swe-agent and Claude Code send it before auto-compaction."""

    name = "naive"
    compactions = 0

    def on_tool_result(self, call: ToolCall, output: object) -> None:
        return None

    def messages_for_request(self, history: list[Message]) -> list[Message]:
        return list(history)


# The original's phase table: (first messages kept, last messages kept).
ORIGINAL_KEEP = {
    TaskPhase.PLANNING: (1, 4),
    TaskPhase.EXECUTING: (2, 6),
    TaskPhase.VERIFYING: (1, 4),
}


class Original:
    """The original project: past 40K characters, on every call, old results become facts, big
    arguments shrink and an L0 block of all facts is rebuilt into the first message."""

    name = "original"

    def __init__(self, limit_chars: int = 40_000) -> None:
        self.limit_chars = limit_chars
        self.facts: dict[str, Fact] = {}
        self.tracker = PhaseTracker()
        self.compactions = 0

    def on_tool_result(self, call: ToolCall, output: object) -> None:
        fact = extract(call, output)
        self.facts[call.id] = fact
        self.tracker.update(fact)

    def messages_for_request(self, history: list[Message]) -> list[Message]:
        if sum(len(message_text(m)) for m in history) <= self.limit_chars:
            return list(history)
        self.compactions += 1
        first, last = ORIGINAL_KEEP[self.tracker.phase]
        old = range(first, max(first, len(history) - last))
        out = []
        for i, msg in enumerate(history):
            out.append(self._compress(msg) if i in old else msg)
        l0 = render_l0(list(self.facts.values()), self.tracker.phase, limit_chars=4000)
        out[0] = Message(out[0].role, [*out[0].blocks, TextBlock(l0)])
        return out

    def _compress(self, msg: Message) -> Message:
        blocks = []
        for b in msg.blocks:
            if isinstance(b, ToolResult) and b.call_id in self.facts:
                b = replace(b, content=self.facts[b.call_id].render())
            elif isinstance(b, ToolCall) and big_args(b, 600):
                b = replace(
                    b,
                    arguments={
                        k: (v[:80] + " …") if k in big_args(b, 600) else v
                        for k, v in b.arguments.items()
                    },
                )
            blocks.append(b)
        return Message(msg.role, blocks)


class Masking:
    """Observation masking: all but the last `keep` outputs become a placeholder, whenever the
    unmasked older outputs pass `trigger` tokens (trigger 0: on every step)."""

    def __init__(self, keep: int = 3, trigger: int = 10_000) -> None:
        self.keep, self.trigger = keep, trigger
        self.name = f"mask-{trigger // 1000}k" if trigger else "mask-every"
        self.masked: set[str] = set()
        self.tokens: dict[str, int] = {}
        self.compactions = 0

    def on_tool_result(self, call: ToolCall, output: object) -> None:
        self.tokens[call.id] = estimate_tokens(str(getattr(output, "content", "")))

    def messages_for_request(self, history: list[Message]) -> list[Message]:
        ids = [b.call_id for m in history for b in m.tool_results]
        older = [i for i in ids[: -self.keep] if i not in self.masked] if self.keep else ids
        if older and sum(self.tokens.get(i, 0) for i in older) >= self.trigger:
            self.masked.update(older)
            self.compactions += 1
        return self.masked_view(history)

    def masked_view(self, history: list[Message]) -> list[Message]:
        """The history with every masked output replaced by its placeholder."""
        return [
            Message(
                m.role,
                [
                    replace(b, content=self.placeholder(b.call_id))
                    if isinstance(b, ToolResult) and b.call_id in self.masked
                    else b
                    for b in m.blocks
                ],
            )
            for m in history
        ]

    def placeholder(self, call_id: str) -> str:
        return f"[old output omitted: {self.tokens.get(call_id, 0)} tokens]"


class Padded(Masking):
    """Test policy: masking whose placeholders carry every identifier of the output as a bag.
    An honest retention measure must not score it above plain masking."""

    def __init__(self, keep: int = 3, trigger: int = 10_000) -> None:
        super().__init__(keep, trigger)
        self.name = f"pad-{trigger // 1000}k"
        self.bags: dict[str, str] = {}

    def on_tool_result(self, call: ToolCall, output: object) -> None:
        super().on_tool_result(call, output)
        self.bags[call.id] = " ".join(sorted(refs(str(getattr(output, "content", "")))))

    def placeholder(self, call_id: str) -> str:
        return f"{super().placeholder(call_id)} ids: {self.bags.get(call_id, '')}"


class DropAll(Masking):
    """Test policy: every output is gone from the next request on (the newest turn's shows
    once). Cheap per request, but each later use of what it dropped costs a recall."""

    def __init__(self) -> None:
        super().__init__(keep=0, trigger=0)
        self.name = "drop-all"

    def messages_for_request(self, history: list[Message]) -> list[Message]:
        newest = {b.call_id for b in history[-1].tool_results} if history else set()
        self.masked.update(b.call_id for m in history[:-1] for b in m.tool_results)
        self.masked -= newest
        self.compactions += 1
        return self.masked_view(history)

    def placeholder(self, call_id: str) -> str:
        return "[omitted]"


class Ours(CacheAwareContext):
    def __init__(self, overhead_tokens: int = 0, name: str = "ours", **budget: Any) -> None:
        self.name = name
        super().__init__(
            budget=ContextBudget(window_tokens=200_000, overhead_tokens=overhead_tokens, **budget)
        )


def baselines() -> list:
    """Policies replayed with the recording's own fixed prompt (what its agent sent)."""
    return [Naive(), Original(), Masking(3, 10_000), Masking(3, 0), Padded(3, 10_000), DropAll()]
