"""Path resolution inside the workspace."""

from __future__ import annotations

from pathlib import Path

from tools.base import ToolContext, ToolError


def resolve_path(ctx: ToolContext, path: str) -> Path:
    """Resolve `path` (following symlinks) against the workspace; refuse escapes."""
    if not path or not path.strip():
        raise ToolError("path is empty")
    root = ctx.workspace.resolve()
    target = (root / Path(path).expanduser()).resolve()
    if target != root and root not in target.parents:
        raise ToolError(f"{path} is outside the workspace {root}")
    return target


def display(ctx: ToolContext, target: Path) -> str:
    try:
        return str(target.relative_to(ctx.workspace.resolve()))
    except ValueError:
        return str(target)
