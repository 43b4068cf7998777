"""Approvals answered 'always': saved in the Unicum home, one list per project."""

from __future__ import annotations

import json
from pathlib import Path

from my_agent.capped import CONFIG, read_capped_text
from my_agent.files import atomic_write
from my_agent.home import project_id
from my_agent.private import private_dir
from tools.base import ToolContext

FILE = "approvals.json"


def _path(ctx: ToolContext) -> Path:
    return ctx.home / FILE


def _read(path: Path) -> dict[str, list[str]]:
    try:
        data = json.loads(read_capped_text(path, CONFIG))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def saved_approvals(ctx: ToolContext) -> set[str]:
    """The keys ('edit:/path', 'destructive:rm -r/-f') always approved in this project."""
    keys = _read(_path(ctx)).get(project_id(ctx.workspace.resolve()), [])
    return {k for k in keys if isinstance(k, str)} if isinstance(keys, list) else set()


def save_approvals(ctx: ToolContext, keys: list[str]) -> None:
    """Add `keys` to this project's saved approvals (an unwritable home: kept for the session)."""
    path = _path(ctx)
    data = _read(path)
    project = project_id(ctx.workspace.resolve())
    old = data.get(project) if isinstance(data.get(project), list) else []
    data[project] = sorted({*old, *keys})
    try:
        private_dir(path.parent)
        atomic_write(path, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode())
    except OSError:
        pass


def forget_approval(ctx: ToolContext, key: str) -> bool:
    """Take `key` out of this project's saved approvals and the session's; False if absent."""
    path = _path(ctx)
    data = _read(path)
    project = project_id(ctx.workspace.resolve())
    old = data.get(project) if isinstance(data.get(project), list) else []
    found = key in old or key in ctx.approvals
    ctx.approvals.discard(key)
    if key in old:
        data[project] = [k for k in old if k != key]
        atomic_write(path, (json.dumps(data, indent=1, ensure_ascii=False) + "\n").encode())
    return found
