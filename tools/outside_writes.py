"""Where a command writes files: redirections, `tee`, and file commands (cp, mv, ln, truncate,
install) whose destinations may lie outside the workspace."""

from __future__ import annotations

import os
from pathlib import Path

SAFE_WRITE_TARGETS = ("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/")

# program → (which plain arguments it writes: "last" | "all", options that take a value,
# options whose value is a destination folder)
FILE_WRITERS: dict[str, tuple[str, frozenset[str], frozenset[str]]] = {
    "tee": ("all", frozenset(), frozenset()),
    "cp": ("last", frozenset({"-S", "--suffix"}), frozenset({"-t", "--target-directory"})),
    "mv": ("all", frozenset({"-S", "--suffix"}), frozenset({"-t", "--target-directory"})),
    "ln": ("last", frozenset({"-S", "--suffix"}), frozenset({"-t", "--target-directory"})),
    "install": (
        "last",
        frozenset({"-m", "-o", "-g", "-S", "--mode", "--owner", "--group", "--suffix"}),
        frozenset({"-t", "--target-directory"}),
    ),
    "truncate": ("all", frozenset({"-s", "-r", "--size", "--reference"}), frozenset()),
}


def writes_outside(target: str, cwd: Path, workspace: Path) -> bool:
    """True when writing `target` (from `cwd`) changes a file outside the workspace, or when
    it cannot be told (variables, substitutions)."""
    if target.startswith(SAFE_WRITE_TARGETS):
        return False
    expanded = os.path.expandvars(os.path.expanduser(target))
    if "$" in expanded or "`" in expanded:
        return True  # cannot tell where it goes
    path = Path(os.path.normpath(cwd / expanded))
    return path != workspace and workspace not in path.parents


def written_paths(argv: list[str]) -> list[str]:
    """The paths a file command in FILE_WRITERS writes (or moves away), as written."""
    spec = FILE_WRITERS.get(os.path.basename(argv[0]))
    if spec is None:
        return []
    which, valued, dest_opts = spec
    plain: list[str] = []
    dests: list[str] = []
    args = iter(argv[1:])
    options = True
    for arg in args:
        if options and arg == "--":
            options = False
        elif options and arg.startswith("-") and arg != "-":
            name, eq, value = arg.partition("=")
            if name in valued | dest_opts and not eq:
                value = next(args, "")
            if name in dest_opts or (len(name) > 2 and name[:2] == "-t" and name[1] != "-"):
                dests.append(value or name[2:])
        else:
            plain.append(arg)
    if which == "all" or dests:
        return dests + (plain if which == "all" else [])
    return plain[-1:] if len(plain) >= 2 else []
