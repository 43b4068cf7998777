"""Path resolution inside the workspace; anything outside needs the user's approval."""

from __future__ import annotations

from pathlib import Path

from tools.base import ToolContext, ToolError
from tools.guards import approve_special_path


def resolve_path(ctx: ToolContext, path: str, write: bool = False) -> Path:
    """Resolve `path` (following symlinks) against the workspace; outside it, ask first."""
    if not path or not path.strip():
        raise ToolError("path is empty")
    if "\0" in path:
        raise ToolError("path contains a NUL byte")
    from tools.permissions import approve_edit, approve_path, approve_private_read, is_private

    root = ctx.workspace.resolve()
    target = (root / Path(path).expanduser()).resolve()
    approve_special_path(ctx, target, write)  # /proc/*/environ, .git/ writes
    if is_private(target, ctx):
        approve_private_read(ctx, target)  # one question, covering the outside access too
    elif target != root and root not in target.parents:
        approve_path(ctx, target, write)
    elif write:
        approve_edit(ctx, target)
    return target


def display(ctx: ToolContext, target: Path) -> str:
    try:
        return str(target.relative_to(ctx.workspace.resolve()))
    except ValueError:
        return str(target)
