"""Session transcripts: append-only JSONL under `<home>/sessions/<project id>/<session id>.jsonl`.

Line kinds: `session` (header), `message` (one appended message), `reset` (the history was
replaced, e.g. by compaction: the record holds the whole new history), `task` (a task started:
what the user typed) and `task_end` (how a task ended: `stop` is done | max_turns | repeated |
budget | interrupted | error). Replaying the lines in order gives back the history exactly.
"""

from __future__ import annotations

import functools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.agent.events import AgentHooks, TaskResult
from core.agent.records.session_lock import SessionBusy, SessionLock
from my_agent.home import project_id
from my_agent.messages import Message, ToolCall, ToolResult
from my_agent.private import open_private, private_dir
from my_agent.secrets import redact_strings


class TranscriptError(Exception):
    """A saved session cannot be found or read; the message is one line for the user."""


SESSION_ID = re.compile(r"[\w.-]+")  # what `--resume` accepts: a file name, never a pattern


def sessions_dir(home: Path, workspace: Path) -> Path:
    return home / "sessions" / project_id(workspace)


@dataclass
class SessionInfo:
    session_id: str
    path: Path
    modified: float
    first_task: str
    messages: int


def transcript_path(home: Path, workspace: Path, session_id: str) -> Path:
    return sessions_dir(home, workspace) / f"{session_id}.jsonl"


def claim_session(path: Path) -> SessionLock:
    """The session's lock (one process at a time), or a one-line TranscriptError."""
    try:
        return SessionLock.claim(path)
    except SessionBusy as exc:
        raise TranscriptError(str(exc)) from None
    except OSError as exc:
        raise TranscriptError(f"cannot lock session {path}: {exc.strerror or exc}") from exc


class Transcript:
    """Writes one session's history as it grows; `sync` appends only what is new. Secret
    values are redacted on disk; a write that fails (a full disk) is one warning, after
    which the session goes on in memory only."""

    def __init__(
        self,
        path: Path,
        header: dict[str, Any] | None = None,
        history: list[Message] | None = None,
        *,
        secrets: list[str] | None = None,
        warn: Callable[[str], None] | None = None,
        lock: SessionLock | None = None,
    ) -> None:
        self.path = path
        self._written: list[Message] = list(history or [])
        self._header = header  # written with the first message: idle sessions leave no file
        self._secrets = secrets or []
        self._warn = warn
        self.lock = lock
        self.failed = ""  # why writing stopped

    @classmethod
    def create(
        cls,
        home: Path,
        workspace: Path,
        session_id: str,
        *,
        lock=None,
        secrets=None,
        warn=None,
        **header: Any,
    ) -> Transcript:
        path = transcript_path(home, workspace, session_id)
        head = {"id": session_id, "workspace": str(workspace), **header}
        return cls(path, head, lock=lock, secrets=secrets, warn=warn)

    def close(self) -> None:
        if self.lock is not None:
            self.lock.release()

    def _write(self, record: dict[str, Any]) -> None:
        if self.failed:
            return
        try:
            self._append(redact_strings(record, self._secrets) if self._secrets else record)
        except OSError as exc:
            self.failed = exc.strerror or str(exc)
            if self._warn is not None:
                self._warn(
                    f"cannot write the transcript {self.path}: {self.failed}; the session goes "
                    "on in memory and cannot be resumed"
                )

    def _append(self, record: dict[str, Any]) -> None:
        private_dir(self.path.parent)
        line = json.dumps(record, ensure_ascii=False) + "\n"
        if self._header is not None and not self.path.exists():
            line = (
                json.dumps(
                    {"type": "session", "created": time.time(), **self._header}, ensure_ascii=False
                )
                + "\n"
                + line
            )
        self._header = None
        with open_private(self.path, "a+b") as fh:
            if fh.tell() and (fh.seek(-1, 2), fh.read(1))[1] != b"\n":
                line = "\n" + line  # a crash left a torn last line: never glue onto it
            fh.write(line.encode("utf-8"))
            fh.flush()

    def start_task(self, text: str) -> None:
        self._write({"type": "task", "text": text, "at": time.time()})

    def end_task(self, stop: str, turns: int) -> None:
        if self.path.exists():  # an idle session leaves no file
            self._write({"type": "task_end", "stop": stop, "turns": turns, "at": time.time()})

    def sync(self, history: list[Message]) -> None:
        """Append messages added since the last sync; a replaced history becomes a `reset`."""
        n = len(self._written)
        same_prefix = len(history) >= n and all(history[i] is self._written[i] for i in range(n))
        if not same_prefix:
            self._write({"type": "reset", "messages": [m.to_dict() for m in history]})
        else:
            for msg in history[n:]:
                self._write({"type": "message", "message": msg.to_dict()})
        self._written = list(history)


def last_stop(path: Path) -> str:
    """How the session's last task ended (`task_end` record), or "" when none says."""
    stop = ""
    try:
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith('{"type": "task_end"'):
                stop = str(json.loads(line).get("stop") or "")
    except (OSError, ValueError):
        return ""
    return stop


def tasks_started(path: Path) -> int:
    """How many tasks the saved session started (a resumed one numbers its next task after
    them); transcripts from before `task` records count their ends."""
    starts = ends = 0
    try:
        for line in path.read_bytes().decode("utf-8", errors="replace").splitlines():
            starts += line.startswith('{"type": "task",')
            ends += line.startswith('{"type": "task_end"')
    except OSError:
        return 0
    return max(starts, ends)


def read_history(path: Path, warnings: list[str] | None = None) -> list[Message]:
    """Replay a transcript file into the history it recorded. Lines that are not a record
    (torn by a crash, garbled, foreign) are skipped; how many goes to `warnings`."""
    history: list[Message] = []
    try:
        lines = path.read_bytes().decode("utf-8", errors="replace").splitlines()
    except OSError as exc:
        raise TranscriptError(f"cannot read session {path}: {exc.strerror or exc}") from exc
    skipped = 0
    for line in lines:
        if not line.strip():
            continue
        try:
            history = _replay(json.loads(line), history)
        except (ValueError, TypeError, KeyError, AttributeError, IndexError):
            skipped += 1
    if skipped and warnings is not None:
        warnings.append(
            f"session {path.stem}: skipped {skipped} unreadable line"
            f"{'s' if skipped > 1 else ''} of {path}"
        )
    return history


def _replay(record: Any, history: list[Message]) -> list[Message]:
    """The history after one record; raises on anything that is not a valid record."""
    kind = record["type"] if isinstance(record, dict) else None
    if kind == "message":
        return [*history, _message(record["message"])]
    if kind == "reset":
        if not isinstance(record["messages"], list):
            raise TypeError("reset without a message list")
        return [_message(m) for m in record["messages"]]
    if kind in ("session", "task", "task_end"):
        return history
    raise ValueError(f"not a transcript record: {str(record)[:40]}")


def _message(data: Any) -> Message:
    if not isinstance(data, dict) or data.get("role") not in ("user", "assistant"):
        raise TypeError("message record without a user or assistant message")
    return Message.from_dict(data)


def _first_task(path: Path) -> tuple[str, int]:
    first, count = "", 0
    for msg in read_history(path):
        count += 1
        if not first and msg.role == "user" and msg.text.strip():
            first = msg.text.strip().splitlines()[0]
    return first, count


def list_sessions(home: Path, workspace: Path) -> list[SessionInfo]:
    """This folder's saved sessions, newest first; files that cannot be read are left out."""
    folder = sessions_dir(home, workspace)
    found = []
    for path in folder.glob("*.jsonl") if folder.is_dir() else []:
        try:
            modified = path.stat().st_mtime
            first, count = _first_task(path)
        except (OSError, TranscriptError):
            continue
        found.append(SessionInfo(path.stem, path, modified, first, count))
    return sorted(found, key=lambda s: s.modified, reverse=True)


def find_session(home: Path, workspace: Path, session_id: str | None) -> Path:
    """The file of `session_id` (this folder first, then any folder), or the newest here."""
    if session_id is None:
        sessions = [s for s in list_sessions(home, workspace) if s.messages]
        if not sessions:
            raise TranscriptError(f"no saved session for {workspace}: start one without --continue")
        return sessions[0].path
    if not SESSION_ID.fullmatch(session_id) or session_id.startswith("."):
        raise TranscriptError(
            f"no saved session '{session_id}': a session id has only letters, digits, '.', "
            "'-' and '_' (`unicum --resume` without an id lists this folder's sessions)"
        )
    local = sessions_dir(home, workspace) / f"{session_id}.jsonl"
    if local.is_file():
        return local
    matches = sorted((home / "sessions").glob(f"*/{session_id}.jsonl"))
    if not matches:
        raise TranscriptError(
            f"no saved session '{session_id}' in any folder: `unicum --resume` without an id "
            "lists this folder's sessions"
        )
    return matches[0]


def task_text(home: Path, task_id: str) -> str:
    """What the user typed for ledger task `<session id>/<n>`: the n-th typed request appended
    to that session's transcript ("" when the session or the request is not found)."""
    session_id, _, number = task_id.rpartition("/")
    if not number.isdigit() or not SESSION_ID.fullmatch(session_id) or session_id.startswith("."):
        return ""
    for path in sorted((home / "sessions").glob(f"*/{session_id}.jsonl")):
        try:
            stat = path.stat()
        except OSError:
            continue
        typed = _typed_requests(path, stat.st_mtime_ns, stat.st_size)
        if 0 < int(number) <= len(typed):
            return typed[int(number) - 1]
    return ""


@functools.lru_cache(maxsize=16)
def _typed_requests(path: Path, mtime_ns: int, size: int) -> tuple[str, ...]:
    """The typed requests of one transcript, read once per version of the file (a usage
    report names many tasks of the same session)."""
    try:
        lines = path.read_bytes().decode("utf-8", errors="replace").splitlines()
    except OSError:
        return ()
    typed: list[str] = []
    for line in lines:
        try:
            record = json.loads(line)
            message = _message(record["message"]) if record.get("type") == "message" else None
        except (ValueError, TypeError, KeyError, AttributeError):
            continue
        if message is not None and message.role == "user" and message.text.strip():
            typed.append(message.text.strip())
    return tuple(typed)


class TranscriptHooks(AgentHooks):
    """Keeps a transcript in step with `history` at every point the agent appends to it."""

    def __init__(self, transcript: Transcript, history_of) -> None:
        self.transcript = transcript
        self.history_of = history_of  # () -> the live history list

    def _sync(self) -> None:
        self.transcript.sync(self.history_of())

    def on_task_start(self, task: str) -> None:
        self.transcript.start_task(task)

    def before_request(self, turn: int) -> None:
        self._sync()  # the user's message, or the last tool results

    def on_tool_start(self, call: ToolCall) -> None:
        self._sync()  # the assistant message that asked for tools

    def on_task_end(self, result: TaskResult) -> None:
        self._sync()  # the final answer, or results written on interruption
        self.transcript.end_task(result.stop, result.turns)


def close_open_tool_calls(history: list[Message], note: str) -> int:
    """Pair every tool call of the history with a result (a session cut off mid-tool, or a
    transcript two processes wrote into): a missing result becomes `note`, a result with no
    call is dropped. Changes `history` in place; returns how many calls were answered."""
    answered = 0
    i = 0
    while i < len(history):
        msg = history[i]
        calls = {c.id for c in msg.tool_calls} if msg.role == "assistant" else set()
        nxt = history[i + 1] if i + 1 < len(history) else None
        if nxt is not None and nxt.role == "user" and nxt.tool_results:
            kept = [b for b in nxt.blocks if not isinstance(b, ToolResult) or b.call_id in calls]
            if len(kept) != len(nxt.blocks):
                history[i + 1] = nxt = Message("user", kept)
        if calls:
            have = {r.call_id for r in nxt.tool_results} if nxt and nxt.role == "user" else set()
            missing = [
                ToolResult(c.id, note, is_error=True) for c in msg.tool_calls if c.id not in have
            ]
            if missing and nxt is not None and nxt.role == "user":
                history[i + 1] = Message("user", [*nxt.tool_results, *missing, *_others(nxt)])
            elif missing:
                history.insert(i + 1, Message("user", list(missing)))
            answered += len(missing)
        if msg.role == "user" and not msg.blocks:
            del history[i]
            continue
        i += 1
    return answered


def _others(msg: Message) -> list:
    return [b for b in msg.blocks if not isinstance(b, ToolResult)]
