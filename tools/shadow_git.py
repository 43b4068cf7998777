"""A shadow git repository for one workspace: its own GIT_DIR (in the Unicum home) and its own
index, GIT_WORK_TREE = the workspace. The user's `.git`, index and stash are never read or
written; `.gitignore` and `.git/info/exclude` are respected; files over MAX_FILE_BYTES are left
out; every git call has a time limit.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from my_agent.capped import read_head
from my_agent.files import file_lock
from my_agent.private import open_private, private_dir, write_private

MAX_FILE_BYTES = 10 * 1024 * 1024  # bigger files are not snapshotted (and so not undoable)
TIMEOUT = 30.0  # seconds for one git call; a snapshot that takes longer is skipped
REF = "refs/unicum/snapshots"
MANY = 200  # more changed paths than this: `git add -A .` rather than a list
MAX_EXCLUDE = 1024 * 1024
_CONFIG = {
    "core.autocrlf": "false",
    "core.safecrlf": "false",
    "core.fsmonitor": "false",  # never run a program named by the project's config
    "core.hooksPath": "/dev/null",
    "core.untrackedCache": "true",
    "core.quotePath": "false",
    "core.symlinks": "true",
    "core.fileMode": "true",
    "gc.auto": "0",
    "index.version": "4",
    "user.name": "unicum",
    "user.email": "unicum@localhost",
}


class SnapshotError(Exception):
    """git is missing, failed or took too long: the snapshot (or restore) did not happen."""


@dataclass(frozen=True)
class Change:
    status: str  # A (added), M (modified), D (deleted), T (type changed), relative to `old`
    path: str  # relative to the workspace, POSIX separators


class ShadowGit:
    def __init__(self, workspace: Path, git_dir: Path, max_bytes: int = MAX_FILE_BYTES) -> None:
        self.workspace = workspace.resolve()
        self.git_dir = git_dir
        self.max_bytes = max_bytes
        self.big = git_dir / "unicum-big-files"  # paths left out for their size

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        return {
            **env,
            "GIT_DIR": str(self.git_dir),
            "GIT_WORK_TREE": str(self.workspace),
            "GIT_INDEX_FILE": str(self.git_dir / "index"),
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_LITERAL_PATHSPECS": "1",
            "GIT_OPTIONAL_LOCKS": "0",
            "LC_ALL": "C",
        }

    def git(self, *args: str, data: bytes | None = None) -> bytes:
        try:
            done = subprocess.run(
                ["git", *args],
                input=data,
                capture_output=True,
                env=self._env(),
                cwd=self.workspace,
                timeout=TIMEOUT,
            )
        except FileNotFoundError as exc:
            raise SnapshotError("git is not installed") from exc
        except subprocess.TimeoutExpired as exc:
            raise SnapshotError(f"git {args[0]} took over {TIMEOUT:.0f}s") from exc
        if done.returncode != 0:
            err = done.stderr.decode("utf-8", "replace").strip().splitlines()
            raise SnapshotError(f"git {args[0]}: {err[-1] if err else done.returncode}")
        return done.stdout

    def _init(self) -> None:
        if (self.git_dir / "HEAD").is_file():
            return
        private_dir(self.git_dir)
        self.git("init", "-q", "--shared=0600", "--template=")  # owner-only; no sample hooks
        for key, value in _CONFIG.items():
            self.git("config", key, value)
        self.git("symbolic-ref", "HEAD", REF)  # status then compares with the last snapshot

    def _sync_excludes(self) -> None:
        """The project's `.git/info/exclude` plus the files too big to keep."""
        lines = []
        user = self.workspace / ".git" / "info" / "exclude"
        if user.is_file():  # at most MAX_EXCLUDE bytes: `truncate -s 6G` must not stop us
            with contextlib.suppress(OSError):
                lines.append(read_head(user, MAX_EXCLUDE).decode("utf-8", "replace"))
        if self.big.is_file():
            lines.append(self.big.read_text("utf-8"))
        info = self.git_dir / "info"
        private_dir(info)
        text = "\n".join(lines)
        exclude = info / "exclude"
        if not exclude.is_file() or exclude.read_text("utf-8", "replace") != text:
            write_private(exclude, text)

    def _changed(self) -> list[str]:
        """Paths whose working copy differs from the shadow index (new, changed, deleted):
        one walk of the workspace, through the untracked cache."""
        out = self.git(
            "status",
            "--porcelain=v1",
            "-z",
            "--untracked-files=all",
            "--no-renames",
            "--ignore-submodules=all",
        )
        paths = []
        for entry in filter(None, out.decode("utf-8", "surrogateescape").split("\0")):
            if entry[1] != " " or entry[:2] == "??":
                paths.append(entry[3:])
        return paths

    def _leave_out_big(self, paths: list[str]) -> list[str]:
        """Files over the size limit join the exclusions (and leave the index); the rest."""
        big, rest = [], []
        for rel in paths:
            try:
                size = (self.workspace / rel).lstat().st_size
            except OSError:
                size = 0  # deleted
            (big if size > self.max_bytes else rest).append(rel)
        if big:
            with open_private(self.big, "a", encoding="utf-8", errors="surrogateescape") as fh:
                fh.writelines("/" + _escape(rel) + "\n" for rel in big)
            self.git("rm", "-q", "--cached", "--ignore-unmatch", "--", *big)
            self._sync_excludes()
        return rest

    @contextlib.contextmanager
    def _exclusive(self) -> Iterator[None]:
        """One Unicum process at a time in this shadow repository (sessions of the same
        project wait for each other); holding it, a git lock file left behind is stale (a
        killed git) and is removed instead of failing every later snapshot."""
        private_dir(self.git_dir)
        with file_lock(self.git_dir.parent / "snapshots.lock"):
            for name in ("index.lock", "HEAD.lock", f"{REF}.lock"):
                (self.git_dir / name).unlink(missing_ok=True)
            yield

    def tree(self) -> str:
        """Record the workspace as it is now; the id of its tree."""
        with self._exclusive():
            self._init()
            self._sync_excludes()
            changed = self._leave_out_big(self._changed())
            if len(changed) > MANY:  # pathspec matching is slow for thousands: add everything
                self._add_all()
            elif changed:
                data = "\0".join(changed).encode("utf-8", "surrogateescape")
                args = ["--pathspec-from-file=-", "--pathspec-file-nul"]
                try:
                    self.git("add", "-A", "--ignore-errors", *args, data=data)
                except SnapshotError as exc:
                    if "symbolic link" not in str(exc):
                        raise
                    self._add_all()  # a folder became a link: paths beyond it are no pathspec
            return self.git("write-tree").decode().strip()

    def _add_all(self) -> None:
        self.git("add", "-A", "--ignore-errors", ".")

    def keep(self, tree: str, message: str) -> None:
        """Make `tree` reachable (a commit on refs/unicum/snapshots) so no gc ever drops it."""
        with self._exclusive():
            self._keep(tree, message)

    def _keep(self, tree: str, message: str) -> None:
        ref = REF
        try:
            parent = ["-p", self.git("rev-parse", "-q", "--verify", ref).decode().strip()]
        except SnapshotError:
            parent = []
        commit = self.git("commit-tree", tree, *parent, "-m", message or "snapshot")
        self.git("update-ref", ref, commit.decode().strip())

    def changes(self, old: str, new: str) -> list[Change]:
        """What differs from tree `old` to tree `new`, file by file."""
        if old == new:
            return []
        out = self.git("diff-tree", "-r", "-z", "--no-renames", "--name-status", old, new)
        words = out.decode("utf-8", "surrogateescape").split("\0")
        return [Change(s, p) for s, p in zip(words[0::2], words[1::2], strict=False) if p]

    def patch(self, old: str, new: str) -> str:
        return self.git("diff-tree", "-p", "--no-renames", "--no-color", old, new).decode(
            "utf-8", "replace"
        )

    def restore(self, tree: str, changes: list[Change], since: float) -> list[Change]:
        """Put the files of `changes` back as they are in `tree`; a file absent there is removed
        when it was created or changed at `since` or later (an older one was only hidden
        by an ignore rule the step removed). Returns what was done."""
        back = [c.path for c in changes if c.status != "A"]
        if back:
            data = "\0".join(back).encode("utf-8", "surrogateescape")
            with self._exclusive():
                self.git(
                    "checkout", tree, "--pathspec-from-file=-", "--pathspec-file-nul", data=data
                )
        kept = [c for c in changes if c.status != "A" or _remove(self.workspace, c.path, since)]
        return kept


def _escape(rel: str) -> str:
    """A path as a literal gitignore pattern."""
    return "".join("\\" + c if c in "*?[]\\!# " else c for c in rel)


def _remove(workspace: Path, rel: str, since: float) -> bool:
    """Delete a file the undone step created, then the folders it leaves empty."""
    path = workspace / rel
    try:
        if path.lstat().st_ctime < since:
            return False
        path.unlink()
    except OSError:
        return False
    for folder in path.parents:
        if folder == workspace or workspace not in folder.parents:
            break
        try:
            folder.rmdir()
        except OSError:
            break
    return True
