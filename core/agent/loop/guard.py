"""The loop guard: a model that makes the same call and gets the same result again is told what
to do instead from the second time (`advice.py`), and stopped at the fifth: when three rounds of
advice did not change what it does.

"The same" is the tool, its arguments without the position ones (offset, limit, line range)
and its result: a read with a new offset that returns nothing new is a repeat too, while a
call whose result changed (the file was edited, the test now passes) is not. In an
error result numbers do not count ("offset 900 is past the end" = "offset 1000 is past the end").
A repeat that cannot help (an error, an empty result) is answered with the advice in place of
the same answer. A stop needs a reply made after the advice: one reply holding the same call
fifty times gets the advice, not a stop. The guard sees each output before the context policy does, so the advice is
part of what is archived and shown.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Collection
from dataclasses import dataclass, field

from core.agent.loop.advice import advice, cannot_help
from my_agent.messages import ToolCall, ToolResult
from tools.base import ToolOutput

WARN_AT = 2
STOP_AT = 5
POSITION_ARGS = frozenset(
    {"offset", "limit", "start", "end", "start_line", "end_line", "line", "lines", "page", "head"}
)


def repeat_note(count: int, next_step: str) -> str:
    return (
        f"[unicum: this is call #{count} of this same call with this same result. "
        f"Do this instead: {next_step}.]"
    )


def stop_line(name: str, count: int, next_step: str = "") -> str:
    told = f"the advice to {next_step} did not change it; " if next_step else ""
    return (
        f"Stopped: the model made the same {name} call with the same result {count} times "
        f"({told}ask again with more detail, or try another model)."
    )


def answered(result: ToolResult, count: int, next_step: str) -> str:
    """A repeat's content: a call that cannot help gets the advice after its error's first
    line; any other the result and the advice (the context policy keeps one copy of a result
    repeated: the earlier one becomes a pointer)."""
    note = repeat_note(count, next_step)
    if cannot_help(result):
        first = result.content.strip().splitlines()[:1]
        return "\n".join([*first, note])
    return f"{result.content}\n\n{note}"


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
    read: set[str] = field(default_factory=set)  # files read so far (not advised again)
    reply: int = 0  # the model's replies so far in the task
    advised: dict[str, int] = field(default_factory=dict)  # key -> the reply first advised in

    def start_task(self) -> None:
        self.counts.clear()
        self.read.clear()
        self.advised.clear()
        self.stopped, self.reply = "", 0

    def new_reply(self) -> None:
        """The calls after this come from a new reply (one that could read earlier advice)."""
        self.reply += 1

    def review(self, call: ToolCall, output: ToolOutput, tools: Collection[str] = ()) -> str:
        """The content to send for `call`'s `output`: itself, or on a repeat the advice
        (`tools`: what the session offers); sets `stopped` when a repeat reached `stop_at`."""
        result = ToolResult(call.id, output.content, output.is_error)
        if call.name == "read_file" and not output.is_error:
            self.read.add(str(call.arguments.get("path") or ""))
        key = call_key(call, result)
        count = self.counts[key] = self.counts.get(key, 0) + 1
        if count < self.warn_at:
            return output.content
        next_step = advice(call, result, tools, self.read)
        first = self.advised.setdefault(key, self.reply)
        if count >= self.stop_at and first < self.reply:  # the model had read the advice
            self.stopped = self.stopped or stop_line(call.name, count, next_step)
        return answered(result, count, next_step)
