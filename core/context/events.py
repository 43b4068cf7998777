"""Compaction events of the default policy: which older results an event turns into their
`[archived #id] fact` line, which stay whole, and when the rewrite pays for the cache it breaks.

Pure steps over the policy's records (its facts, sizes and earlier decisions); the policy
(core/context/cache_policy.py) decides when an event is due and keeps what it returns."""

from __future__ import annotations

from collections.abc import Callable, Container, Mapping

from core.context.budget import ContextBudget
from core.context.compaction import Compacted, archived_line
from my_agent.facts import Fact
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult

FAILURE_WHOLE_TOKENS = 2_000  # the failure being worked on stays whole up to this size


def event_pays(budget: ContextBudget, saved: int, resent: int, turns: int) -> bool:
    """A rewrite pays when what it saves on the requests still expected (as many as the
    `turns` so far) outweighs re-sending `resent` past the cached prefix once; `min_gain`
    is the floor."""
    read, write = budget.cache_read, budget.cache_write
    expected = saved * max(1, turns) * read
    return saved >= budget.min_gain * resent and expected >= resent * (write - read)


def kept_whole(
    older: list[Message],
    facts: Mapping[str, Fact],
    sizes: Mapping[str, int],
    archived: Container[str],
    budget: ContextBudget,
    protect: tuple[str, ...],
) -> set[str]:
    """Results an event leaves verbatim: small recent ones, sub-agent reports, the failure
    being fixed (a `protect` kind), the latest view of each recently read file."""
    keep: set[str] = set()
    hot, seen = 0, set()
    results = [
        b.call_id
        for m in older
        for b in m.blocks
        if isinstance(b, ToolResult) and b.call_id in facts
    ]
    recent = budget.small_for_results or len(results)
    for age, call_id in enumerate(reversed(results)):
        fact, size = facts[call_id], sizes.get(call_id, 0)
        if call_id in archived:
            continue
        small = size <= budget.small_result_tokens and age < recent
        if small or fact.tool in budget.keep_tools:
            keep.add(call_id)
        elif fact.kind in protect and not fact.ok and size <= FAILURE_WHOLE_TOKENS:
            keep.add(call_id)
            protect = ()
        elif (
            fact.kind == "read"
            and fact.path
            and fact.path not in seen
            and hot + size <= budget.hot_read_tokens
        ):
            keep.add(call_id)
            hot += size
        if fact.kind in ("read", "write", "edit") and fact.path:
            seen.add(fact.path)
    return keep


def archive_older(
    older: list[Message],
    state: Compacted,
    facts: Mapping[str, Fact],
    keys: Mapping[str, tuple[str, str]],
    skip: Container[str],
    arg_ids: Mapping[str, dict[str, str]],
    kept_lines: Callable[[int, str], str | None] = lambda index, call_id: None,
) -> None:
    """Into `state`: the line of every result in `older` not in `skip` (kept whole, already a
    line), "(repeated later)" when its call ran again, or the lines of it later steps used
    (`kept_lines(message index, call id)`, when not None); the stand-ins of archived
    arguments."""
    latest = {key: cid for cid, key in keys.items()}
    for index, msg in enumerate(older):
        for block in msg.blocks:
            if isinstance(block, ToolResult) and block.call_id in facts:
                if block.call_id in skip or block.call_id in state.results:
                    continue
                key = keys.get(block.call_id)
                later = key is not None and latest[key] != block.call_id
                lined = None if later else kept_lines(index, block.call_id)
                state.results[block.call_id] = lined or archived_line(facts[block.call_id], later)
            elif isinstance(block, ToolCall) and block.id in arg_ids:
                state.args[block.id] = arg_ids[block.id]


def shortened_texts(
    older: list[Message],
    texts: Mapping[str, str],
    limit: int,
    short_note: Callable[[str], str],
) -> dict[str, str]:
    """The model's own longer texts before the tail: their opening (`short_note`), the whole
    archived; those already shortened (`texts`) keep their line."""
    out = dict(texts)
    if not limit:
        return out
    for msg in older:
        if msg.role != "assistant":
            continue
        for block in msg.blocks:
            text = block.text if isinstance(block, TextBlock) else ""
            if len(text) > limit + 40 and text not in out:
                out[text] = short_note(text)
    return out
