"""What a sandboxed command sees of the user's files (bwrap mount arguments, in order):

- the home deny-by-default: an empty tmpfs over `$HOME`, then the toolchains commands need
  (`READABLE_IN_HOME` and config.json's `sandbox.read`) bound back read-only;
- the git metadata carve-out: the repository's real gitdir (a worktree's or submodule's `.git`
  file resolved) writable for index, objects and refs, its `config`, `hooks`, `info`,
  `modules`, `worktrees` and the `.git` file itself read-only (git runs what they name);
- the agent's own configuration read-only (`PROTECTED_NAMES`: what the next session loads);
- the desktop's and daemons' sockets hidden (`HIDDEN_SOCKETS`, `/run/user/*`).

A path bound onto itself is a mount point: it cannot be renamed, deleted or replaced either.
"""

from __future__ import annotations

import os
from pathlib import Path

from my_agent.capped import read_head

# relative to HOME: toolchains and interpreters commands need (never credentials or caches
# of credentials; caches start empty in the sandbox's own writable HOME)
READABLE_IN_HOME = (
    ".local/bin",
    ".local/lib",
    ".local/share/uv/python",
    ".cargo/bin",
    ".rustup",
    ".nvm",
    ".pyenv",
    ".rbenv",
    ".volta",
    ".bun/bin",
    ".deno/bin",
    ".sdkman/candidates",
    "go/bin",
    ".go",
    "miniconda3",
    "anaconda3",
    ".gitconfig",
    ".config/git/config",
    ".config/git/ignore",
    ".config/git/attributes",
)
# relative to the workspace: what the next session loads and runs (hooks, MCP servers,
# commands, skills, agent definitions, instructions)
PROTECTED_NAMES = (
    ".unicum",
    ".claude",
    ".mcp.json",
    ".agents",
    ".codex",
    "AGENTS.md",
    "CLAUDE.md",
    "CLAUDE.local.md",
    "UNICUM.md",
)
# in the gitdir: what git reads as instructions (config, hooks) or other repositories' gitdirs
GIT_READ_ONLY = ("config", "config.worktree", "hooks", "info", "modules", "worktrees")
# in a worktree's own gitdir: where its common dir and work tree are
WORKTREE_READ_ONLY = ("config.worktree", "commondir", "gitdir")
# daemons' sockets (a command reaching one acts with the user's rights outside the sandbox)
HIDDEN_SOCKETS = (
    "/run/user",
    "/var/run/user",
    "/run/dbus",
    "/var/run/dbus",
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/run/docker",
    "/run/containerd",
    "/run/podman",
    "/run/snapd.socket",
    "/run/snapd-snap.socket",
    "/run/systemd/private",
    "/run/systemd/userdb",
    "/run/systemd/journal",
    "/run/libvirt",
    "/run/lxd",
    "/var/lib/lxd/unix.socket",
    "/run/k3s",
    "/run/cups",
    "/run/avahi-daemon",
)


def inside(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def ro(path: Path | str) -> list[str]:
    return ["--ro-bind", str(path), str(path)]


def home_args(user_home: Path, workspace: Path, extra: list[str]) -> list[str]:
    """An empty HOME with the toolchains bound back read-only. Nothing when the workspace is
    the home or holds it (then only the secret paths are hidden, by the caller)."""
    home = Path(os.path.realpath(user_home))
    if not home.is_dir() or inside(home, workspace) or home == Path("/"):
        return []
    args = ["--tmpfs", str(home)]
    for rel in [*READABLE_IN_HOME, *extra]:
        path = Path(os.path.realpath(home / os.path.expanduser(rel)))
        if path.exists() and path != home and inside(path, home) and not inside(path, workspace):
            args += ro(path)
    return args


def git_dirs(workspace: Path) -> tuple[Path | None, Path | None, Path | None]:
    """(the `.git` entry, its gitdir, the common dir) of the repository holding `workspace`;
    Nones when there is none."""
    for folder in (workspace, *workspace.parents):
        dotgit = folder / ".git"
        if dotgit.is_dir():
            return dotgit, dotgit.resolve(), dotgit.resolve()
        if dotgit.is_file():
            gitdir = _gitfile_target(dotgit)
            if gitdir is None:
                return dotgit, None, None
            return dotgit, gitdir, _common_dir(gitdir)
    return None, None, None


def _gitfile_target(dotgit: Path) -> Path | None:
    try:
        text = _head(dotgit)
    except OSError:
        return None
    for line in text.splitlines():
        if line.startswith("gitdir:"):
            target = Path(line[len("gitdir:") :].strip())
            target = target if target.is_absolute() else dotgit.parent / target
            return target.resolve() if target.is_dir() else None
    return None


def _head(path: Path) -> str:
    """The first 4 KB of a small git file (a 6 GB one must not stop every command)."""
    return read_head(path, 4096).decode("utf-8", "replace")


def _common_dir(gitdir: Path) -> Path:
    try:
        rel = _head(gitdir / "commondir").strip()
    except OSError:
        return gitdir
    common = Path(rel) if Path(rel).is_absolute() else gitdir / rel
    return common.resolve() if common.is_dir() else gitdir


def git_args(workspace: Path, writable: bool) -> list[str]:
    """The git metadata carve-out (see the module's docstring); in the read-only mode only the
    `.git` file and directories themselves stay as they are."""
    dotgit, gitdir, common = git_dirs(workspace)
    if dotgit is None or gitdir is None or common is None:
        return ro(dotgit) if dotgit is not None and dotgit.is_file() else []
    bind = "--bind" if writable else "--ro-bind"
    args = [bind, str(common), str(common)]
    try:  # else a command could create hooks/pre-commit (git itself makes this folder)
        (common / "hooks").mkdir(exist_ok=True)
    except OSError:
        pass
    for name in GIT_READ_ONLY:
        if (common / name).exists():
            args += ro(common / name)
    if gitdir != common:
        args += [bind, str(gitdir), str(gitdir)]
        for name in WORKTREE_READ_ONLY:
            if (gitdir / name).exists():
                args += ro(gitdir / name)
    if dotgit.is_file():
        args += ro(dotgit)
    return args


def protected_args(workspace: Path) -> list[str]:
    """The agent's configuration in the workspace, read-only (those that exist)."""
    args: list[str] = []
    for name in PROTECTED_NAMES:
        path = workspace / name
        if path.exists() and not path.is_symlink():
            args += ro(path)
    return args


def socket_args(workspace: Path) -> list[str]:
    """Daemon sockets and the per-user runtime folders, hidden (an empty tmpfs or /dev/null)."""
    args: list[str] = []
    for path in dict.fromkeys(Path(os.path.realpath(name)) for name in HIDDEN_SOCKETS):
        if not path.exists() or inside(workspace, path):
            continue
        args += ["--tmpfs", str(path)] if path.is_dir() else ["--ro-bind", "/dev/null", str(path)]
    return args
