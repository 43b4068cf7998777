"""`--debug` logging: every request and response appended as JSON under `<home>/logs/`."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from core.agent.events import AgentHooks, TaskResult
from my_agent.messages import ModelResponse
from my_agent.private import open_private, private_dir
from my_agent.secrets import REDACTED, redact_strings, secret_values

__all__ = ["DebugHooks", "DebugLog", "redact", "secret_values"]
SECRET_NAMES = ("api_key", "apikey", "authorization", "x-api-key", "token", "secret", "password")


def redact(value: Any, secrets: list[str]) -> Any:
    """A copy of `value` with secret-named fields and any known key value replaced."""
    if isinstance(value, dict):
        return {
            k: REDACTED if str(k).lower() in SECRET_NAMES and v else redact(v, secrets)
            for k, v in value.items()
        }
    if isinstance(value, list | tuple):
        return [redact(v, secrets) for v in value]
    return redact_strings(value, secrets)


class DebugLog:
    """One JSONL file per session; each record is written and flushed at once."""

    def __init__(self, home: Path, session_id: str, secrets: list[str] | None = None) -> None:
        self.path = home / "logs" / f"{session_id}.jsonl"
        self._secrets = secret_values() if secrets is None else secrets

    def write(self, kind: str, payload: Any) -> None:
        private_dir(self.path.parent)
        record = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "kind": kind,
            "data": redact(payload, self._secrets),
        }
        with open_private(self.path, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(record, ensure_ascii=False, default=str) + "\n")


class DebugHooks(AgentHooks):
    """Appends each response (and retries) to the debug log; requests come from the client."""

    def __init__(self, log: DebugLog) -> None:
        self.log = log

    def on_response(self, response: ModelResponse) -> None:
        self.log.write(
            "response",
            {
                "model": response.model,
                "stop_reason": response.stop_reason,
                "usage": response.usage.to_dict(),
                "ttft": response.ttft,
                "duration": response.duration,
                "message": response.message.to_dict(),
            },
        )

    def on_retry(self, attempt: int, wait: float, reason: str) -> None:
        self.log.write("retry", {"attempt": attempt, "wait": wait, "reason": reason})

    def on_task_end(self, result: TaskResult) -> None:
        self.log.write(
            "task_end",
            {"stop": result.stop, "turns": result.turns, "usage": result.usage.to_dict()},
        )
