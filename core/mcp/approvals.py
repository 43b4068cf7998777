"""A project's `.mcp.json` servers are asked about once, before they first start, with the
command they run (as Claude Code asks): the answer is remembered per project and per command
(a changed command is asked again), in `mcp-approvals.json` in the Unicum home. A server
answered no never starts; settings' `enableAllProjectMcpServers`, `enabledMcpjsonServers` and
`disabledMcpjsonServers` answer for the user."""

from __future__ import annotations

import json
from pathlib import Path

from core.mcp.config import PROJECT_FILE, ServerConfig, _entries, project_config_allowed
from my_agent.capped import CONFIG, read_capped_text
from my_agent.files import atomic_write, file_lock
from my_agent.home import project_id

FILE = "mcp-approvals.json"


def _read(home: Path) -> dict:
    try:
        data = json.loads(read_capped_text(home / FILE, CONFIG))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def answers(workspace: Path, home: Path) -> dict[str, dict]:
    """This project's answers: server name → {"target": command or URL, "start": bool}."""
    found = _read(home).get(project_id(workspace.resolve()), {})
    return found if isinstance(found, dict) else {}


def answered(server: ServerConfig, workspace: Path, home: Path) -> bool | None:
    """True (start it), False (never), or None (not asked yet, or its command changed)."""
    entry = answers(workspace, home).get(server.name)
    if not isinstance(entry, dict) or entry.get("target") != server.target:
        return None
    return bool(entry.get("start"))


def remember(server: ServerConfig, start: bool, workspace: Path, home: Path) -> None:
    """Record the answer for this project (OSError when the home cannot be written)."""
    with file_lock(home / f"{FILE}.lock"):
        data = _read(home)
        key = project_id(workspace.resolve())
        mine = data.get(key) if isinstance(data.get(key), dict) else {}
        mine[server.name] = {"target": server.target, "start": start}
        data[key] = mine
        atomic_write(home / FILE, (json.dumps(data, indent=1) + "\n").encode(), mode=0o600)


def unasked(workspace: Path, home: Path, settings: list[dict]) -> list[ServerConfig]:
    """The project's servers to ask about now: not answered, not answered by the settings."""
    if not project_config_allowed(workspace):
        return []
    servers = _entries(workspace / PROJECT_FILE, "project", lambda _: None)
    return [
        s for s in servers if said(s, settings) is None and answered(s, workspace, home) is None
    ]


def said(server: ServerConfig, settings: list[dict]) -> bool | None:
    """What the settings say about a project server (Claude Code's keys), or None."""
    for data in settings:
        if server.name in (data.get("disabledMcpjsonServers") or []):
            return False
    for data in settings:
        if data.get("enableAllProjectMcpServers") is True:
            return True
        if server.name in (data.get("enabledMcpjsonServers") or []):
            return True
    return None
