"""The line oracle: a policy that knows the recording's future, a bound no rule can beat.

After the model has seen it once, every output keeps only its lines that carry a reference a
later call of the recording uses (the replay's own notion: bench/replay_metrics.py), nothing
else; the model's older notes and long arguments keep those lines and a stand-in line. The task and the user's messages stay whole. Each message is cut once,
the turn after it is seen, so the provider caches keep hitting as they would live.
"""

from __future__ import annotations

from dataclasses import replace

from bench.replay_metrics import Provenance, plain, refs
from bench.trajectories import Recording
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult

LONG_ARG = 300  # characters: an argument value longer than this is cut like a note


def later_refs(rec: Recording) -> list[frozenset[str]]:
    """For each message of the recording, the references the calls after it use (those only
    an earlier output introduced, as the replay counts them)."""
    origin = Provenance()
    origin.note(Message("user", [TextBlock(rec.system)]))
    needed: list[set[str]] = []
    for msg in rec.messages:
        needed.append(origin.needed_by(msg) if msg.role == "assistant" else set())
        origin.note(msg)
    out: list[frozenset[str]] = []
    after: set[str] = set()
    for used in reversed(needed):
        out.append(frozenset(after))
        after |= used
    return out[::-1]


def used_lines(text: str, wanted: frozenset[str], what: str = "") -> str:
    """The lines of `text` that carry a wanted reference, then (given `what`) a stand-in."""
    lines = text.splitlines()
    kept = [line for line in lines if refs(line) & wanted]
    stand_in = [f"[{what}: {len(kept)} of {len(lines)} lines kept]"] if what else []
    return "\n".join([*kept, *stand_in])


class LineOracle:
    """Only the output lines a later step uses, plus note and argument stand-ins (the issue's
    definition)."""

    name = "oracle"
    compactions = 0
    both_bases = True  # replayed on the same-prompt basis and with Unicum's prompt

    def __init__(self) -> None:
        self.after: dict[object, frozenset[str]] = {}  # call id / note text -> later refs
        self.cut: dict[int, tuple[Message, Message]] = {}  # id(message) -> (it, its cut)

    def prepare(self, rec: Recording) -> None:
        for msg, later in zip(rec.messages, later_refs(rec), strict=True):
            for block in msg.blocks:
                if isinstance(block, ToolResult):
                    self.after[("out", block.call_id)] = later
                elif isinstance(block, ToolCall):
                    self.after[("call", block.id)] = later
                elif isinstance(block, TextBlock) and msg.role == "assistant":
                    self.after.setdefault(("note", block.text), later)

    def on_tool_result(self, call: ToolCall, output: object) -> None:
        return None

    def messages_for_request(self, history: list[Message]) -> list[Message]:
        """Everything before the newest model turn cut; that turn and its outputs whole."""
        newest = max((i for i, m in enumerate(history) if m.role == "assistant"), default=-1)
        return [self._cut(m) if i < newest else m for i, m in enumerate(history)]

    def _cut(self, msg: Message) -> Message:
        known = self.cut.get(id(msg))
        if known is None or known[0] is not msg:
            known = (msg, Message(msg.role, [self._block(msg.role, b) for b in msg.blocks]))
            self.cut[id(msg)] = known
        return known[1]

    def _block(self, role: str, block: object) -> object:
        if isinstance(block, ToolResult) and ("out", block.call_id) in self.after:
            wanted = self.after[("out", block.call_id)]
            return replace(block, content=used_lines(block.content, wanted))
        if isinstance(block, ToolCall) and ("call", block.id) in self.after:
            wanted = self.after[("call", block.id)]
            args = {k: self._arg(v, wanted) for k, v in block.arguments.items()}
            return replace(block, arguments=args, raw_arguments="")
        if isinstance(block, TextBlock) and role == "assistant":
            wanted = self.after.get(("note", block.text), frozenset())
            return TextBlock(used_lines(block.text, wanted, "note"))
        return block  # the task, the user's messages, recalled outputs: whole

    @staticmethod
    def _arg(value: object, wanted: frozenset[str]) -> object:
        text = plain(value)
        return used_lines(text, wanted, "argument") if len(text) > LONG_ARG else value
