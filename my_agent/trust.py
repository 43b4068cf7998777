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

from my_agent.capped import read_capped_text
from my_agent.files import atomic_write, file_lock
from my_agent.home import unicum_home
from my_agent.trust_digest import changed, fingerprint

TRUST_FILE = "trusted.json"
TRUST_ENV = "UNICUM_TRUST_PROJECT"  # set for one run: the folder is trusted, everything loads
MAX_TRUST_FILE = 1024 * 1024


def _read(home: Path) -> dict:
    path = home / TRUST_FILE
    try:
        data = json.loads(read_capped_text(path, MAX_TRUST_FILE))
    except (OSError, ValueError, RecursionError):
        return {}
    return data if isinstance(data, dict) else {}


def _folders(home: Path) -> list[str]:
    folders = _read(home).get("folders")
    return [f for f in folders if isinstance(f, str)] if isinstance(folders, list) else []


def opted_in() -> bool:
    """This run was told to trust its folder (`--trust-project`, `UNICUM_TRUST_PROJECT=1`)."""
    return os.environ.get(TRUST_ENV, "").strip().lower() in ("1", "true", "yes")


def is_trusted(workspace: Path, home: Path | None = None) -> bool:
    """True when the user trusted `workspace` or a folder above it (the one test for `.env`,
    imports, skills, hooks and MCP servers), or opted in for this run (`--trust-project`,
    `UNICUM_TRUST_PROJECT=1`: what a CI job says for the checkout it runs in)."""
    if opted_in():
        return True
    folder = workspace.expanduser().resolve()
    trusted = {Path(f) for f in _folders(home or unicum_home())}
    return any(candidate in trusted for candidate in (folder, *folder.parents))


def trust_folder(workspace: Path, home: Path | None = None) -> None:
    """Remember `workspace` as trusted, with its extension files as they are now (an OSError
    when the home cannot be written)."""
    home = home or unicum_home()
    folder = str(workspace.expanduser().resolve())
    with file_lock(home / f"{TRUST_FILE}.lock"):
        data = _read(home)
        folders = _folders(home)
        extensions = data.get("extensions") if isinstance(data.get("extensions"), dict) else {}
        extensions[folder] = fingerprint(workspace)
        if folder not in folders:
            folders.append(folder)
        out = {**data, "folders": folders, "extensions": extensions}
        atomic_write(home / TRUST_FILE, json.dumps(out, indent=1).encode("utf-8"), mode=0o600)


def changed_extensions(workspace: Path, home: Path | None = None) -> list[str]:
    """The trusted `workspace`'s extension files added or changed since the user trusted it
    (or last confirmed them). A folder trusted through a folder above it is fingerprinted on
    its first session."""
    home = home or unicum_home()
    if opted_in():
        return []  # trusted for this run only (--trust-project): nothing to compare, nothing kept
    folder = str(workspace.expanduser().resolve())
    saved = _read(home).get("extensions")
    before = saved.get(folder) if isinstance(saved, dict) else None
    if not isinstance(before, dict):
        if is_trusted(workspace, home):
            try:
                trust_folder(workspace, home)
            except OSError:
                pass
        return []
    return changed(before, fingerprint(workspace))


def extensions_allowed(workspace: Path, home: Path | None = None) -> bool:
    """May the project's hooks, MCP servers, commands, skills and agent definitions load?
    A remembered trust, and none of those files changed since it was given."""
    return is_trusted(workspace, home) and not changed_extensions(workspace, home)
