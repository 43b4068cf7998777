"""Recorded agent sessions → canonical messages: mini-swe-agent, SWE-agent and Claude Code files."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from my_agent.messages import Message, TextBlock, ToolCall, ToolResult

CLAUDE_CODE_OVERHEAD = (
    13_500  # system prompt + tool schemas the .jsonl files leave out (their README)
)


@dataclass
class Recording:
    source: str  # mini-swe-agent | swe-agent | claude-code
    name: str
    system: str
    messages: list[Message]
    overhead_tokens: int = 0  # request parts the file does not hold (counted, never compacted)
    billed: list[int] = field(default_factory=list)  # provider prompt tokens per request, if any


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(
            b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def _args(raw: str) -> dict[str, Any]:
    try:
        value = json.loads(raw or "{}")
    except ValueError:
        return {"command": raw}
    return value if isinstance(value, dict) else {"value": value}


def load_mini(path: Path, data: dict[str, Any]) -> list[Recording]:
    system, messages, billed = "", [], []
    for raw in data["messages"]:
        role, content = raw.get("role"), _text(raw.get("content"))
        if role == "system":
            system = content
        elif role == "user":
            messages.append(Message("user", [TextBlock(content)]))
        elif role == "assistant":
            calls = [
                ToolCall(c["id"], c["function"]["name"], _args(c["function"]["arguments"]))
                for c in raw.get("tool_calls") or []
            ]
            messages.append(Message("assistant", [TextBlock(content)] * bool(content) + calls))
            usage = ((raw.get("extra") or {}).get("response") or {}).get("usage") or {}
            billed.append(int(usage.get("prompt_tokens") or 0))
        elif role == "tool":
            result = ToolResult(raw.get("tool_call_id", ""), content)
            if messages and messages[-1].role == "user" and messages[-1].tool_results:
                messages[-1].blocks.append(result)
            else:
                messages.append(Message("user", [result]))
    return [Recording("mini-swe-agent", path.name, system, messages, billed=billed)]


def load_swe_agent(path: Path, data: dict[str, Any]) -> list[Recording]:
    history = data.get("history") or []
    system = next((_text(m["content"]) for m in history if m.get("role") == "system"), "")
    messages: list[Message] = []
    for m in history:
        if m.get("role") == "assistant":
            break
        if m.get("role") == "user":
            messages.append(Message("user", [TextBlock(_text(m["content"]))]))
    for i, step in enumerate(data.get("trajectory") or []):
        call = ToolCall(f"swe-{i}", "bash", {"command": step.get("action", "").strip()})
        thought = (step.get("thought") or "").strip()
        messages.append(Message("assistant", [TextBlock(thought)] * bool(thought) + [call]))
        messages.append(Message("user", [ToolResult(call.id, step.get("observation") or "")]))
    return [Recording("swe-agent", path.name, system, messages)]


def _cc_blocks(content: Any) -> list:
    if isinstance(content, str):
        return [TextBlock(content)] if content else []
    blocks: list = []
    for b in content or []:
        kind = b.get("type")
        if kind == "text" and b.get("text"):
            blocks.append(TextBlock(b["text"]))
        elif kind == "tool_use":
            blocks.append(ToolCall(b["id"], b["name"], b.get("input") or {}))
        elif kind == "tool_result":
            blocks.append(
                ToolResult(b["tool_use_id"], _text(b.get("content")), bool(b.get("is_error")))
            )
    return blocks


def load_claude_code(path: Path, lines: list[dict[str, Any]]) -> list[Recording]:
    """Split at Claude Code's own compaction (compact_boundary): each part is what was sent."""
    parts: list[list[Message]] = [[]]
    last_id = None
    for rec in lines:
        if rec.get("type") == "system" and rec.get("subtype") == "compact_boundary":
            parts.append([])
            continue
        if rec.get("type") not in ("user", "assistant") or not isinstance(rec.get("message"), dict):
            continue
        msg = rec["message"]
        blocks = _cc_blocks(msg.get("content"))
        if not blocks:
            continue
        current = parts[-1]
        same_reply = rec["type"] == "assistant" and msg.get("id") and msg.get("id") == last_id
        last_id = msg.get("id") if rec["type"] == "assistant" else None
        if current and (same_reply or current[-1].role == msg.get("role") == "user"):
            current[-1].blocks.extend(blocks)
        else:
            current.append(Message(msg.get("role", rec["type"]), blocks))
    stem = path.name
    return [
        Recording(
            "claude-code", f"{stem}#{i}" if len(parts) > 1 else stem, "", msgs, overhead_tokens=0
        )
        for i, msgs in enumerate(parts, 1)
        if any(m.role == "assistant" for m in msgs)
    ]


def answer_in_order(messages: list[Message]) -> list[Message]:
    """Each call's result right after its turn (recorders log parallel results out of order)."""
    results = {r.call_id: r for m in messages for r in m.tool_results}
    out: list[Message] = []

    def add(role: str, blocks: list) -> None:
        if out and out[-1].role == role == "user":
            out[-1].blocks.extend(blocks)
        else:
            out.append(Message(role, list(blocks)))

    for msg in messages:
        if msg.role == "assistant":
            add("assistant", msg.blocks)
            answered = [results.pop(c.id) for c in msg.tool_calls if c.id in results]
            if answered:
                add("user", answered)
        else:
            rest = [b for b in msg.blocks if not isinstance(b, ToolResult)]
            if rest:
                add("user", rest)
    return out


def load(path: Path) -> list[Recording]:
    """Every recording in one file; ValueError names the file when its format is unknown."""
    recordings = _load(path)
    for rec in recordings:
        rec.messages = answer_in_order(rec.messages)
    return recordings


def _load(path: Path) -> list[Recording]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        return load_claude_code(
            path, [json.loads(line) for line in text.splitlines() if line.strip()]
        )
    data = json.loads(text)
    if isinstance(data, dict) and "messages" in data:
        return load_mini(path, data)
    if isinstance(data, dict) and "trajectory" in data:
        return load_swe_agent(path, data)
    raise ValueError(f"{path}: not a mini-swe-agent, SWE-agent or Claude Code trajectory")


def find_files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(
                p
                for p in path.rglob("*")
                if p.is_file() and (p.name.endswith((".traj.json", ".traj", ".jsonl")))
            )
        else:
            found.append(path)
    return found
