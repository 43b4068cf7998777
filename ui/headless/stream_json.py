"""`--output-format stream-json`: one JSON event a line, in Claude Code's event shape, and the
user messages `--input-format stream-json` reads.

Events: `system/init` first; `stream_event` text deltas while a reply streams; each reply as
an `assistant` message (text, thinking and `tool_use` blocks); each tool's answer as a `user`
message with a `tool_result` block; a `result` event per task (cost and usage included)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import IO, Any

from core.agent import AgentHooks, LiveSession, TaskResult
from my_agent.errors import ConfigError
from my_agent.messages import (
    ModelResponse,
    ReasoningBlock,
    StreamEvent,
    TextBlock,
    TextDelta,
    ToolCall,
    Usage,
)
from tools.base import ToolOutput
from tools.claude_code import CLAUDE_MODES

SUBTYPES = {"done": "success", "max_turns": "error_max_turns"}


def wire_usage(usage: Usage) -> dict[str, int]:
    """Usage under the Anthropic names Claude Code reports."""
    return {
        "input_tokens": usage.input,
        "cache_creation_input_tokens": usage.cache_write,
        "cache_read_input_tokens": usage.cache_read,
        "output_tokens": usage.output,
    }


def _content(response: ModelResponse) -> list[dict[str, Any]]:
    blocks: list[dict[str, Any]] = []
    for block in response.message.blocks:
        if isinstance(block, TextBlock) and block.text:
            blocks.append({"type": "text", "text": block.text})
        elif isinstance(block, ReasoningBlock) and block.text:
            blocks.append({"type": "thinking", "thinking": block.text})
        elif isinstance(block, ToolCall):
            blocks.append(
                {"type": "tool_use", "id": block.id, "name": block.name, "input": block.arguments}
            )
    return blocks


class CostHooks(AgentHooks):
    """Adds up what each request of a task cost and its model time. The cost is the one the
    ledger records for the response (`LiveSession.cost_of`: a local server costs $0, another
    host without a price of the user's is unknown), so `-p` and `/usage` never disagree."""

    def __init__(self) -> None:
        self.cost_of: Callable[[ModelResponse], float | None] | None = None  # set with the session
        self.cost: float | None = None
        self.api_seconds = 0.0

    def on_task_start(self, task: str) -> None:
        self.cost, self.api_seconds = None, 0.0

    def on_response(self, response: ModelResponse) -> None:
        self.api_seconds += response.duration
        cost = self.cost_of(response) if self.cost_of is not None else None
        if cost is not None:
            self.cost = (self.cost or 0.0) + cost


class StreamJson(AgentHooks):
    """Writes the agent's events to `out` as they happen, one JSON object a line."""

    def __init__(self, out: IO[str], session_id: str) -> None:
        self.out = out
        self.session_id = session_id

    def emit(self, event: dict[str, Any]) -> None:
        event.setdefault("session_id", self.session_id)
        self.out.write(json.dumps(event, ensure_ascii=False) + "\n")
        self.out.flush()

    def init(self, live: LiveSession) -> None:
        agent = live.agent
        self.emit(
            {
                "type": "system",
                "subtype": "init",
                "cwd": str(agent.tool_context.workspace),
                "model": agent.client.model,
                "provider": agent.client.provider.profile.name,
                "tools": sorted(agent.registry.tools),
                "permissionMode": CLAUDE_MODES.get(agent.tool_context.permission_mode, "default"),
            }
        )

    def on_stream(self, event: StreamEvent) -> None:
        if isinstance(event, TextDelta):
            delta = {"type": "text_delta", "text": event.text}
            self.emit(
                {"type": "stream_event", "event": {"type": "content_block_delta", "delta": delta}}
            )

    def on_response(self, response: ModelResponse) -> None:
        if response.purpose != "task":
            return  # a compaction summary is not part of the conversation
        message = {
            "type": "message",
            "role": "assistant",
            "model": response.model,
            "content": _content(response),
            "stop_reason": response.stop_reason,
            "usage": wire_usage(response.usage),
        }
        self.emit({"type": "assistant", "message": message})

    def on_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        block = {
            "type": "tool_result",
            "tool_use_id": call.id,
            "content": output.content,
            "is_error": output.is_error,
        }
        self.emit({"type": "user", "message": {"role": "user", "content": [block]}})


def result_event(
    result: TaskResult | None,
    cost: CostHooks,
    session_id: str,
    seconds: float,
    error: str = "",
    subtype: str = "",
    wire_names: bool = True,
) -> dict[str, Any]:
    """The `result` event (and `--output-format json`'s object): answer, cost, usage, turns.
    `wire_names`: usage under Anthropic's names (stream-json), else Unicum's (json, as before)."""
    usage = None
    if result is not None:
        usage = wire_usage(result.usage) if wire_names else result.usage.to_dict()
    failed = bool(error) or (result is not None and result.stop != "done")
    kind = subtype or ("error_during_execution" if error else SUBTYPES.get(result.stop, ""))
    event: dict[str, Any] = {
        "type": "result",
        "subtype": kind or "error_during_execution",
        "is_error": failed,
        "result": result.text if result is not None and not error else None,
        "session_id": session_id,
        "stop": result.stop if result is not None else "error",
        "num_turns": result.turns if result else 0,
        "turns": result.turns if result else 0,
        "duration_ms": int(seconds * 1000),
        "duration_api_ms": int(cost.api_seconds * 1000),
        "total_cost_usd": None if cost.cost is None else round(cost.cost, 6),
        "usage": usage,
    }
    if error:
        event["error"] = error
    return event


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n\n".join(
            b.get("text", "") for b in content if isinstance(b, dict) and b.get("type") == "text"
        )
    return ""


def read_user_messages(stream: IO[str] = sys.stdin) -> Iterator[str]:
    """Each `{"type": "user", "message": {"role": "user", "content": ...}}` line as a task's
    text (content a string or text blocks); blank lines are skipped, others are an error."""
    for number, line in enumerate(stream, 1):
        if not line.strip():
            continue
        try:
            event = json.loads(line)
        except ValueError:
            raise ConfigError(f"--input-format stream-json: line {number} is not JSON") from None
        message = event.get("message") if isinstance(event, dict) else None
        text = _text(message.get("content")) if isinstance(message, dict) else ""
        if event.get("type") != "user" or not text.strip():
            raise ConfigError(
                f"--input-format stream-json: line {number} is not a user message with text "
                '(expected {"type": "user", "message": {"role": "user", "content": "..."}})'
            )
        yield text
