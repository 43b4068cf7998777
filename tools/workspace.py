"""Path resolution inside the workspace; anything outside needs the user's approval."""

from __future__ import annotations

from pathlib import Path

from tools.base import ToolContext, ToolError


def resolve_path(ctx: ToolContext, path: str, write: bool = False) -> Path:
    """Resolve `path` (following symlinks) against the workspace; outside it, ask first."""
    if not path or not path.strip():
        raise ToolError("path is empty")
    if "\0" in path:
        raise ToolError("path contains a NUL byte")
    root = ctx.workspace.resolve()
    target = (root / Path(path).expanduser()).resolve()
    if target != root and root not in target.parents:
        from tools.permissions import approve_path

        approve_path(ctx, target, write)
    return target


def display(ctx: ToolContext, target: Path) -> str:
    try:
        return str(target.relative_to(ctx.workspace.resolve()))
    except ValueError:
        return str(target)
