"""Instruction files a command created are not loaded until the user confirms them.

The sandbox keeps an existing `AGENTS.md` (and the rest of the agent's configuration) read-only
by binding it onto itself, but bwrap cannot bind a path that does not exist without creating it
first: an empty `AGENTS.md` would appear in every project for the command's whole run (and
`git add -A` in it would commit one). So a missing instruction file stays creatable, and what a
command creates is recorded here instead: before every command the instruction files missing in
the workspace are written down as pending (so a session killed mid-command still counts), after
it those that appeared are kept as made by a command. The next session does not read them as
instructions until the user confirms (`confirm`); a file the edit tools wrote was asked for.

The record is `command-made.json` in the Unicum home, which commands cannot see:
`{"made": {"/abs/AGENTS.md": "<session id>"}, "pending": {"<session id>": {"time", "paths"}}}`.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from my_agent.capped import read_capped_text
from my_agent.files import atomic_write, file_lock

RECORD = "command-made.json"
INSTRUCTION_NAMES = ("AGENTS.md", "CLAUDE.md", "CLAUDE.local.md", "UNICUM.md")
MAX_RECORD = 1024 * 1024
PENDING_DAYS = 7  # a crashed session's pending paths, none of which appeared, are dropped after


def _read(home: Path) -> dict:
    path = home / RECORD
    try:
        data = json.loads(read_capped_text(path, MAX_RECORD))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _part(data: dict, key: str) -> dict:
    value = data.get(key)
    return value if isinstance(value, dict) else {}


@contextmanager
def _updating(home: Path) -> Iterator[dict]:
    with file_lock(home / f"{RECORD}.lock"):
        data = _read(home)
        made = {p: s for p, s in _part(data, "made").items() if os.path.lexists(p)}  # gone: done
        data = {"made": made, "pending": _part(data, "pending")}
        yield data
        atomic_write(home / RECORD, json.dumps(data, indent=1).encode("utf-8"), mode=0o600)


def missing(folders: tuple[Path, ...]) -> list[str]:
    """The instruction files not there yet in `folders` (what a command could create)."""
    return [
        str(folder / name)
        for folder in folders
        for name in INSTRUCTION_NAMES
        if not os.path.lexists(folder / name)
    ]


def before_command(home: Path, session: str, paths: list[str]) -> None:
    """Write down `paths` (missing now) as pending for this session's running command."""
    if not paths:
        return
    with _updating(home) as data:
        cutoff = time.time() - PENDING_DAYS * 86400
        pending = data["pending"]
        for key in [k for k, v in pending.items() if _stale(v, cutoff)]:
            del pending[key]
        pending[session] = {"time": time.time(), "paths": paths}


def _stale(entry: object, cutoff: float) -> bool:
    if not isinstance(entry, dict) or not isinstance(entry.get("paths"), list):
        return True
    old = not isinstance(entry.get("time"), (int, float)) or entry["time"] < cutoff
    return old and not any(os.path.lexists(p) for p in entry["paths"] if isinstance(p, str))


def after_command(home: Path, session: str, paths: list[str]) -> list[str]:
    """The command ended: those of `paths` that exist now were made by it (returned)."""
    made = [p for p in dict.fromkeys(paths) if os.path.lexists(p)]
    if not made and session not in _part(_read(home), "pending"):
        return []
    with _updating(home) as data:
        data["pending"].pop(session, None)
        for path in made:
            data["made"][path] = session
    return made


def unconfirmed(home: Path) -> set[Path]:
    """Instruction files a command made (or may have made: its session died mid-command)
    that the user has not confirmed."""
    data = _read(home)
    found = {Path(p) for p in _part(data, "made") if isinstance(p, str)}
    for entry in _part(data, "pending").values():
        paths = entry.get("paths") if isinstance(entry, dict) else None
        found |= {Path(p) for p in paths or [] if isinstance(p, str)}
    return {p for p in found if os.path.lexists(p)}


def unconfirmed_in(home: Path, folders: list[Path]) -> list[Path]:
    """Those of `unconfirmed` directly in one of `folders` (where instructions are read)."""
    return sorted(p for p in unconfirmed(home) if p.parent in folders)


def confirm(home: Path, paths: list[Path]) -> None:
    """The user read them: load them as instructions from now on."""
    names = {str(p) for p in paths}
    with _updating(home) as data:
        for name in names:
            data["made"].pop(name, None)
        for entry in data["pending"].values():
            if isinstance(entry, dict) and isinstance(entry.get("paths"), list):
                entry["paths"] = [p for p in entry["paths"] if p not in names]


@contextmanager
def watching(home: Path, session: str, folders: tuple[Path, ...]) -> Iterator[list[str]]:
    """Around one command: the instruction files it creates in `folders` are recorded (a home
    that cannot be written loses the record, never the command). The list yielded takes more
    paths the command is known to have created (deeper folders, from its snapshot)."""
    paths = missing(folders)
    created: list[str] = []
    try:
        before_command(home, session or "default", paths)
    except OSError:
        pass
    try:
        yield created
    finally:
        try:
            after_command(home, session or "default", paths + created)
        except OSError:
            pass
