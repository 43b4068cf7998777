"""The loop guard: a model that makes the same call and gets the same result again is told so
at the third time and stopped at the fifth.

"The same" is the tool, its arguments without the position ones (offset, limit, line range)
and its result: a read with a new offset that returns nothing new is a repeat too, while a
call whose result changed (the file was edited, the test now passes) is not. In an
error result numbers do not count ("offset 900 is past the end" = "offset 1000 is past the end").
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field

from my_agent.messages import ToolCall, ToolResult

WARN_AT = 3
STOP_AT = 5
POSITION_ARGS = frozenset(
    {"offset", "limit", "start", "end", "start_line", "end_line", "line", "lines", "page", "head"}
)


def repeat_note(count: int) -> str:
    return (
        f"[unicum: this is call #{count} of this same call with this same result. Calling it "
        "again will not show anything new: answer with what you have, or change approach.]"
    )


def stop_line(name: str, count: int) -> str:
    return (
        f"Stopped: the model made the same {name} call with the same result {count} times "
        "(ask again with more detail, or try another model)."
    )


def call_key(call: ToolCall, result: ToolResult) -> str:
    args = {k: v for k, v in call.arguments.items() if k not in POSITION_ARGS}
    if not call.arguments and call.raw_arguments.strip():
        args = {"_raw": call.raw_arguments.strip()}
    content = result.content
    if result.is_error:  # "offset 900 is past the end…" and "offset 1000…" say the same
        content = re.sub(r"\d+", "#", content)
    text = json.dumps([call.name, args, content, result.is_error], sort_keys=True, default=str)
    return hashlib.sha1(text.encode("utf-8", "replace")).hexdigest()


@dataclass
class LoopGuard:
    warn_at: int = WARN_AT
    stop_at: int = STOP_AT
    counts: dict[str, int] = field(default_factory=dict)
    stopped: str = ""  # the line to end the task with, once a call repeated `stop_at` times

    def start_task(self) -> None:
        self.counts.clear()
        self.stopped = ""

    def review(self, calls: list[ToolCall], results: list[ToolResult]) -> list[ToolResult]:
        """`results` with a note on repeats; sets `stopped` when a repeat reached `stop_at`."""
        by_id = {c.id: c for c in calls}
        out = []
        for result in results:
            call = by_id.get(result.call_id)
            if call is None:
                out.append(result)
                continue
            key = call_key(call, result)
            count = self.counts[key] = self.counts.get(key, 0) + 1
            if count >= self.stop_at:
                self.stopped = self.stopped or stop_line(call.name, count)
            if count >= self.warn_at:
                result = ToolResult(
                    result.call_id, f"{result.content}\n\n{repeat_note(count)}", result.is_error
                )
            out.append(result)
        return out
