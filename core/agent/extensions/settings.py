"""The settings files, in Claude Code's schema, and the one reader of them: hooks and
permission rules both come from here.

User settings (`~/.unicum-agent/settings.json`) always load; a project's (`.unicum/` and
`.claude/`, each `settings.json` then `settings.local.json`) only in a folder the user trusted."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.agent.extensions.gate import project_extensions_allowed
from core.agent.prompts.instructions import project_root
from my_agent.capped import read_capped_text

PROJECT_FILES = ("settings.json", "settings.local.json")
MAX_SETTINGS = 1024 * 1024


@dataclass(frozen=True)
class SettingsFile:
    path: Path
    scope: str  # "user" | "project"
    data: dict


def settings_files(workspace: Path, home: Path) -> list[tuple[Path, str]]:
    """User settings first, then the project's (only where project extensions may load)."""
    files = [(home / "settings.json", "user")]
    if project_extensions_allowed(workspace):
        root = project_root(workspace)
        for folder in (root / ".unicum", root / ".claude"):
            files += [(folder / name, "project") for name in PROJECT_FILES]
    return files


def read_settings(workspace: Path, home: Path, warn: Callable[[str], None]) -> list[SettingsFile]:
    """Every settings file that exists and parses, in order; a broken one is one warning."""
    found: list[SettingsFile] = []
    for path, scope in settings_files(workspace, home):
        try:
            if not path.exists():  # a FIFO or a link to /dev/zero is read (refused) and said
                continue
            data = json.loads(read_capped_text(path, MAX_SETTINGS))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError, RecursionError) as exc:
            warn(f"settings file {path} skipped: {getattr(exc, 'why', exc)}")
            continue
        found.append(SettingsFile(path, scope, data))
    return found


def status_line_command(workspace: Path, home: Path) -> dict | None:
    """Claude Code's `statusLine` (`{"type": "command", "command": …, "padding": …,
    "refreshInterval": …}`): the last file's that names a command wins."""
    found = None
    for file in read_settings(workspace, home, lambda _: None):
        entry = file.data.get("statusLine")
        if isinstance(entry, dict) and entry.get("type", "command") == "command":
            if str(entry.get("command") or ""):
                found = entry
    return found
