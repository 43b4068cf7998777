"""What each wire API requires of a message list; used by the compaction tests."""

from __future__ import annotations

from core.model import anthropic_wire, openai_wire
from my_agent.messages import Message


def anthropic_problems(messages: list[Message]) -> list[str]:
    wire = anthropic_wire.messages_to_wire(messages)
    problems = []
    if not wire or wire[0]["role"] != "user":
        problems.append("first message must be the user's")
    for i, msg in enumerate(wire):
        if i and msg["role"] == wire[i - 1]["role"]:
            problems.append(f"#{i}: two {msg['role']} messages in a row")
        results = [b["tool_use_id"] for b in msg["content"] if b["type"] == "tool_result"]
        asked = [b["id"] for b in wire[i - 1]["content"] if b["type"] == "tool_use"] if i else []
        if results and set(results) - set(asked):
            problems.append(f"#{i}: tool_result without its tool_use right before")
        kinds = [b["type"] for b in msg["content"]]
        if results and kinds[: len(results)] != ["tool_result"] * len(results):
            problems.append(f"#{i}: tool results must come first in the user turn")
        calls = [b["id"] for b in msg["content"] if b["type"] == "tool_use"]
        if calls:
            nxt = wire[i + 1] if i + 1 < len(wire) else None
            answered = {b.get("tool_use_id") for b in nxt["content"]} if nxt else set()
            if nxt is not None and set(calls) - answered:
                problems.append(f"#{i}: tool_use not answered in the next message")
    return problems


def openai_problems(messages: list[Message]) -> list[str]:
    wire = openai_wire.messages_to_wire("system", messages)
    problems, open_calls = [], set()
    for i, msg in enumerate(wire):
        if msg["role"] == "tool":
            if msg["tool_call_id"] not in open_calls:
                problems.append(f"#{i}: tool message without its call")
            open_calls.discard(msg["tool_call_id"])
            continue
        if open_calls:
            problems.append(f"#{i}: {msg['role']} before all tool calls were answered")
            open_calls = set()
        if msg["role"] == "assistant":
            open_calls = {c["id"] for c in msg.get("tool_calls") or []}
    return problems
