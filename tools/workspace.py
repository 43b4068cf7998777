"""Path resolution inside the workspace; anything outside needs the user's approval."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

from my_agent.files import UnsafePath, write_beneath
from my_agent.walk import walk
from tools.base import ToolContext, ToolError
from tools.guards import approve_special_path


def resolve_path(ctx: ToolContext, path: str, write: bool = False) -> Path:
    """Resolve `path` (following symlinks) against the workspace; outside it, ask first (a
    write inside it is asked by the tool, with its diff: `permissions.approve_edit`)."""
    if not path or not path.strip():
        raise ToolError("path is empty")
    if "\0" in path:
        raise ToolError("path contains a NUL byte")
    from tools.permissions import approve_path, approve_private_read, is_private

    root = ctx.workspace.resolve()
    try:
        target = (root / Path(path).expanduser()).resolve()
    except (OSError, RuntimeError) as exc:  # a link changing while it is resolved, a loop
        raise ToolError(f"{path}: cannot resolve ({getattr(exc, 'strerror', '') or exc})") from None
    approve_special_path(ctx, target, write)  # /proc/*/environ, .git/ writes
    if is_private(target, ctx):
        approve_private_read(ctx, target)  # one question, covering the outside access too
    elif target != root and root not in target.parents:
        approve_path(ctx, target, write)
    return target


def display(ctx: ToolContext, target: Path) -> str:
    try:
        return str(target.relative_to(ctx.workspace.resolve()))
    except ValueError:
        return str(target)


def write_in_workspace(ctx: ToolContext, target: Path, data: bytes) -> None:
    """Write a resolved `target` through directory descriptors from the workspace (or from the
    approved outside folder): a symlink swapped in after the check cannot redirect the write,
    and a read-only file is refused with a clear error."""
    root = ctx.workspace.resolve()
    base = root if root in target.parents else target.parent
    try:
        write_beneath(base, target, data)
    except UnsafePath as exc:
        raise ToolError(f"{display(ctx, target)}: {exc}") from None


def no_such_file(ctx: ToolContext, target: Path, shown: str, limit: int = 3) -> ToolError:
    """A missing file's error, naming the project's files of that name: a small model that
    guessed `test/x.py` or doubled the project folder gets the path to use."""
    name = target.name
    same = [e.rel for e in islice(walk(ctx.workspace, want=lambda n: n == name), limit)]
    if not same:
        return ToolError(f"{shown}: no such file")
    return ToolError(f"{shown}: no such file; the project has {', '.join(same)}")
