"""The context policy's state beside the session's transcript (`<session id>.context.json`),
so `--continue` sends what the live session would have: its summary, archived outputs and
lined reads, its compaction count.

Written whole (atomically) when a task ends, when the UI saves the session (after `/compact`,
`/undo`, `/rewind`) and when it closes, secret values redacted like the transcript. It names
the conversation it belongs to (how many messages, and the last one): a resumed history that
does not begin with that conversation gets a fresh policy, as before.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.agent.events import AgentHooks, TaskResult
from core.context import policy_snapshot, restore_policy
from my_agent.capped import MEMORY, read_capped_text
from my_agent.files import atomic_write
from my_agent.messages import Message
from my_agent.secrets import redact_strings

UNREADABLE = (
    "the saved context state {path} could not be read ({why}); the session resumes uncompacted"
)


def context_path(transcript: Path) -> Path:
    return transcript.with_name(transcript.stem + ".context.json")


def _mark(history: list[Message], secrets: list[str], upto: int) -> str:
    """The conversation's fingerprint up to `upto` messages (its last one, as written)."""
    last = redact_strings(history[upto - 1].to_dict(), secrets) if upto else {}
    text = json.dumps([upto, last], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class ContextFile(AgentHooks):
    """Saves the policy's state at each task end; `save()` for the UI's own changes."""

    def __init__(
        self,
        transcript: Path,
        policy_of: Callable[[], object],
        history_of: Callable[[], list[Message]],
        secrets: list[str] | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        self.path = context_path(transcript)
        self.transcript = transcript
        self.policy_of, self.history_of = policy_of, history_of
        self.secrets = secrets or []
        self.warn = warn
        self.failed = False

    def on_task_end(self, result: TaskResult) -> None:
        self.save()

    def save(self) -> None:
        """Write the state now (only once the session has a transcript: idle ones leave none)."""
        if self.failed or not self.transcript.exists():
            return
        history = self.history_of()
        try:
            record = {
                "messages": len(history),
                "mark": _mark(history, self.secrets, len(history)),
                **policy_snapshot(self.policy_of()),  # TypeError: a value it cannot save
            }
            data = json.dumps(redact_strings(record, self.secrets), ensure_ascii=False)
            atomic_write(self.path, data.encode("utf-8"))
        except (OSError, TypeError) as exc:
            self.failed = True
            if self.warn is not None:
                error = getattr(exc, "strerror", None) or exc
                self.warn(f"cannot write the context state {self.path}: {error}")

    def restore(self, history: list[Message]) -> bool:
        """Put the saved state into the (fresh) policy when it belongs to `history`."""
        try:
            saved: Any = json.loads(read_capped_text(self.path, MEMORY))
        except FileNotFoundError:
            return False
        except (OSError, ValueError) as exc:
            if self.warn is not None:
                self.warn(
                    UNREADABLE.format(path=self.path, why=getattr(exc, "strerror", "") or exc)
                )
            return False
        upto = saved.get("messages") if isinstance(saved, dict) else None
        if not isinstance(upto, int) or not 0 <= upto <= len(history):
            return False
        if saved.get("mark") != _mark(history, self.secrets, upto):
            return False
        return restore_policy(self.policy_of(), saved)
