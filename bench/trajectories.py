"""Recorded agent sessions → canonical messages: mini-swe-agent, SWE-agent and Claude Code files."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from my_agent.messages import Message, TextBlock, ToolCall, ToolResult

COMPACTION_RUN = (
    "agent-acompact-"  # Claude Code's own compaction runs: their request is not in the file
)


@dataclass
class Recording:
    source: str  # mini-swe-agent | swe-agent | claude-code
    name: str
    system: str
    messages: list[Message]
    overhead_tokens: int = 0  # request parts the file does not hold (counted, never compacted)
    billed: list[int] = field(default_factory=list)  # provider prompt tokens per request, if any
    times: list[float] = field(default_factory=list)  # when each request was sent (0: unknown)


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
    system, messages, billed, times = "", [], [], []
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
            response = (raw.get("extra") or {}).get("response") or {}
            billed.append(int((response.get("usage") or {}).get("prompt_tokens") or 0))
            times.append(float(response.get("created") or 0))
        elif role == "tool":
            result = ToolResult(raw.get("tool_call_id", ""), content)
            if messages and messages[-1].role == "user" and messages[-1].tool_results:
                messages[-1].blocks.append(result)
            else:
                messages.append(Message("user", [result]))
    return [Recording("mini-swe-agent", path.name, system, messages, billed=billed, times=times)]


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


def _when(stamp: Any) -> float:
    try:
        return datetime.fromisoformat(str(stamp).replace("Z", "+00:00")).timestamp()
    except ValueError:
        return 0.0


def _prompt_tokens(usage: dict[str, Any]) -> int:
    """What the provider counted as input: fresh, read from cache and written to cache."""
    keys = ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens")
    return sum(int(usage.get(k) or 0) for k in keys)


@dataclass
class _Part:
    """One context of a Claude Code file (between its own compactions), one API call a reply."""

    messages: list[Message] = field(default_factory=list)
    replies: dict[str, Message] = field(default_factory=dict)  # message.id -> its one reply
    billed: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)

    def add(self, rec: dict[str, Any], msg: dict[str, Any], blocks: list) -> None:
        reply_id = msg.get("id") if rec["type"] == "assistant" else None
        if reply_id and reply_id in self.replies:  # same call, even after results were logged
            self.replies[reply_id].blocks.extend(blocks)
            return
        if self.messages and self.messages[-1].role == msg.get("role") == "user":
            self.messages[-1].blocks.extend(blocks)
            return
        self.messages.append(Message(msg.get("role", rec["type"]), blocks))
        if rec["type"] == "assistant":
            self.replies[reply_id or f"line-{len(self.messages)}"] = self.messages[-1]
            self.billed.append(_prompt_tokens(msg.get("usage") or {}))
            self.times.append(_when(rec.get("timestamp")))


def load_claude_code(path: Path, lines: list[dict[str, Any]]) -> list[Recording]:
    """Split at Claude Code's own compaction (compact_boundary): each part is what was sent.
    Lines sharing a `message.id` are one API call, so one assistant message and one request."""
    parts = [_Part()]
    for rec in lines:
        if rec.get("type") == "system" and rec.get("subtype") == "compact_boundary":
            parts.append(_Part())
            continue
        if rec.get("type") not in ("user", "assistant") or not isinstance(rec.get("message"), dict):
            continue
        blocks = _cc_blocks(rec["message"].get("content"))
        if blocks:
            parts[-1].add(rec, rec["message"], blocks)
    stem = path.name
    return [
        Recording(
            "claude-code",
            f"{stem}#{i}" if len(parts) > 1 else stem,
            "",
            part.messages,
            billed=part.billed,
            times=part.times,
        )
        for i, part in enumerate(parts, 1)
        if part.replies
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


NOT_A_TRAJECTORY = "not a mini-swe-agent, SWE-agent or Claude Code trajectory"


def load(path: Path) -> list[Recording]:
    """Every recording in one file; ValueError says why when the file is not one of the
    formats (unknown, not JSON, or a field of the wrong shape)."""
    try:
        recordings = _load(path)
    except (AttributeError, TypeError, KeyError, IndexError) as exc:
        why = f"no {exc.args[0]!r} field" if isinstance(exc, KeyError) else str(exc)
        raise ValueError(f"{NOT_A_TRAJECTORY} ({why})") from None
    for rec in recordings:
        rec.messages = answer_in_order(rec.messages)
    return recordings


def _load(path: Path) -> list[Recording]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    if path.suffix == ".jsonl":
        return load_claude_code(path, _json_lines(text))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON (line {exc.lineno}, column {exc.colno})") from None
    if isinstance(data, dict) and "messages" in data:
        return load_mini(path, data)
    if isinstance(data, dict) and "trajectory" in data:
        return load_swe_agent(path, data)
    raise ValueError(NOT_A_TRAJECTORY)


def _json_lines(text: str) -> list[Any]:
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except ValueError:
            raise ValueError(f"line {number} is not JSON") from None
    return rows


def find_files(paths: list[Path]) -> list[Path]:
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found += sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and (p.name.endswith((".traj.json", ".traj", ".jsonl")))
                and not p.name.startswith(COMPACTION_RUN)
            )
        else:
            found.append(path)
    return found
