"""Deleting what snapshots cannot bring back, asked even inside the sandbox: the workspace
itself (`rm -rf .`, `rm -r *`, `rm -rf .git`, `rm -rf ~` around the workspace, `find . -delete`
without a name filter, targets from variables), and a file the shadow repository does not hold
(git-ignored, over 10 MB) that the snapshot store cannot keep either (tools/kept_files.py)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from my_agent.home import unicum_home
from my_agent.shell.words import program
from tools.kept_files import keepable

WHY = "deletes the workspace or its .git, which snapshots cannot bring back"
_RECURSIVE = ("-r", "-R", "--recursive")
_NARROWING = frozenset(
    {"-name", "-iname", "-path", "-ipath", "-wholename", "-regex", "-iregex", "-newer"}
    | {"-mtime", "-mmin", "-empty", "-size"}
)


def deletes_workspace(argv: list[str], cwd: Path, workspace: Path) -> list[str]:
    """One reason when `argv` may delete the workspace root, an ancestor of it or its `.git`."""
    name = program(argv[0])
    if name == "rm" and _recursive(argv):
        targets = [a for a in argv[1:] if not a.startswith("-")]
        label = "rm -r of the workspace"
    elif name == "find" and _find_deletes(argv) and not _NARROWING & set(argv):
        targets = _find_starts(argv)
        label = "find -delete of the workspace"
    else:
        return []
    if any(_hits_root(t, cwd, workspace) for t in targets):
        return [f"{label}: {WHY}"]
    return []


def _recursive(argv: list[str]) -> bool:
    for word in argv[1:]:
        if word == "--":
            return False
        if word in _RECURSIVE or word.startswith("--rec"):
            return True
        if word.startswith("-") and not word.startswith("--") and ("r" in word or "R" in word):
            return True
    return False


def _find_deletes(argv: list[str]) -> bool:
    if "-delete" in argv:
        return True
    for flag in ("-exec", "-execdir", "-ok", "-okdir"):
        if flag in argv[:-1] and program(argv[argv.index(flag) + 1]) in ("rm", "shred"):
            return True
    return False


def _find_starts(argv: list[str]) -> list[str]:
    starts = []
    for word in argv[1:]:
        if word.startswith(("-", "(", "!")):
            break
        starts.append(word)
    return starts or ["."]


def _hits_root(target: str, cwd: Path, workspace: Path) -> bool:
    for name in ("${PWD}", "$PWD"):  # the command's own folder, not this process's
        target = target.replace(name, str(cwd))
    expanded = os.path.expandvars(os.path.expanduser(target))
    if "$" in expanded or "`" in expanded:
        return True  # cannot tell what it is
    folder, base = os.path.split(expanded)
    if base and set(base) <= set("*?.") and "*" in base:
        expanded = folder or "."  # `*`, `./.*`: everything in that folder
    path = Path(os.path.normpath(cwd / expanded))
    if path == workspace or path in workspace.parents:
        return True
    try:
        rel = path.relative_to(workspace)
    except ValueError:
        return False
    return rel.parts[:1] == (".git",)


UNKEPT = "too large for the snapshots to keep ({why}), so /undo cannot bring it back"
BIG = 10 * 1024 * 1024  # tools/shadow_git.py MAX_FILE_BYTES
_DELETERS = ("rm", "unlink", "shred")


def unkept_targets(argv: list[str], cwd: Path, workspace: Path) -> list[tuple[Path, bool]]:
    """The regular files inside the workspace `rm`/`unlink`/`shred` would delete that the
    shadow repository does not hold (git-ignored, or over 10 MB), each with whether only a
    copy keeps it (`shred` overwrites before it unlinks). Folders are left to the other rules."""
    if program(argv[0]) not in _DELETERS:
        return []
    found = []
    for word in [a for a in argv[1:] if not a.startswith("-")][:50]:
        path = Path(os.path.normpath(cwd / os.path.expanduser(word)))
        if path.is_symlink() or not path.is_file():
            continue
        try:
            path.relative_to(workspace)
        except ValueError:
            continue
        if path.stat().st_size > BIG or _ignored(path, workspace):
            found.append((path, program(argv[0]) == "shred"))
    return found


def deletes_unkept(argv: list[str], cwd: Path, workspace: Path) -> list[str]:
    """A reason per file of `unkept_targets` the snapshot store cannot keep either (not on its
    filesystem, or `shred`, and over the copy cap of tools/kept_files.py): those are lost."""
    store = unicum_home().expanduser() / "snapshots"
    reasons = []
    for path, copy_only in unkept_targets(argv, cwd, workspace):
        if not keepable(path, store, copy_only):
            size = f"{path.stat().st_size // (1024 * 1024)} MB"
            word = path.relative_to(cwd).as_posix() if cwd in path.parents else str(path)
            reasons.append(f"{program(argv[0])} {word}: " + UNKEPT.format(why=size))
    return reasons


def _ignored(path: Path, workspace: Path) -> bool:
    """git ignores `path` in the repository holding it (False when there is none)."""
    try:
        done = subprocess.run(
            [
                "git",
                "-c",
                "core.fsmonitor=false",
                "-c",
                "core.hooksPath=/dev/null",
                "-C",
                str(path.parent),
                "check-ignore",
                "-q",
                "--",
                path.name,
            ],
            capture_output=True,
            timeout=5,
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0
