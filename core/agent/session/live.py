"""What the REPL and `-p` do around a session: find the one to resume, show its warnings, end it."""

from __future__ import annotations

from pathlib import Path

from core.agent.options import SessionOptions
from core.agent.records.transcript import find_session
from core.agent.session.assembly import LiveSession
from my_agent.home import unicum_home


def resume_path(opts: SessionOptions, cont: bool, resume_id: str | None) -> Path | None:
    """The transcript `--continue` / `--resume ID` name, or None; TranscriptError if missing."""
    if not cont and not resume_id:
        return None
    return find_session(unicum_home(), opts.workspace.expanduser().resolve(), resume_id)


def start_notes(live: LiveSession) -> list[str]:
    """Warnings the session's services raised while starting (each shown once)."""
    return [f"warning: {w}" for w in live.warnings()]


def end_session(live: LiveSession, reason: str = "other") -> list[str]:
    """Close the session's services (memory written at the end); returns their warnings.
    `reason`: why, as Claude Code's SessionEnd hooks are told."""
    live.close(reason)
    return start_notes(live)
