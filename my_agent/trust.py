"""Trusted folders: which project folders may run their own configuration.

An untrusted folder's `.env`, instruction `@imports`, skills (and later hooks and MCP servers)
are not loaded; its plain AGENTS.md/CLAUDE.md text still is (the model would read the same
file with read_file anyway), without imports and within the size caps. Trust is remembered in
`trusted.json` in the Unicum home; trusting a folder covers the folders below it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from my_agent.files import atomic_write, file_lock
from my_agent.home import unicum_home

TRUST_FILE = "trusted.json"
TRUST_ENV = "UNICUM_TRUST_PROJECT"  # set for one run: the folder is trusted, everything loads
MAX_TRUST_FILE = 1024 * 1024


def _folders(home: Path) -> list[str]:
    path = home / TRUST_FILE
    try:
        if path.stat().st_size > MAX_TRUST_FILE:
            return []
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError):
        return []
    folders = data.get("folders") if isinstance(data, dict) else None
    return [f for f in folders if isinstance(f, str)] if isinstance(folders, list) else []


def is_trusted(workspace: Path, home: Path | None = None) -> bool:
    """True when the user trusted `workspace` or a folder above it (the one test for `.env`,
    imports, skills, hooks and MCP servers), or opted in for this run (`--trust-project`,
    `UNICUM_TRUST_PROJECT=1`: what a CI job says for the checkout it runs in)."""
    if os.environ.get(TRUST_ENV, "").strip().lower() in ("1", "true", "yes"):
        return True
    folder = workspace.expanduser().resolve()
    trusted = {Path(f) for f in _folders(home or unicum_home())}
    return any(candidate in trusted for candidate in (folder, *folder.parents))


def trust_folder(workspace: Path, home: Path | None = None) -> None:
    """Remember `workspace` as trusted (an OSError when the home cannot be written)."""
    home = home or unicum_home()
    folder = str(workspace.expanduser().resolve())
    with file_lock(home / f"{TRUST_FILE}.lock"):
        folders = _folders(home)
        if folder not in folders:
            data = json.dumps({"folders": [*folders, folder]}, indent=1).encode("utf-8")
            atomic_write(home / TRUST_FILE, data, mode=0o600)
