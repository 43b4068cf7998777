"""Host folders a session's sandbox uses (its private /tmp, its seccomp programs and sockets),
held by a lock for as long as the session's process lives.

A process that ends normally removes its folders; one killed (`kill -9`, a crash) cannot. Each
folder therefore carries a lock file its process holds (`flock`, released by the kernel when
the process dies, whatever way it dies), and making a new folder removes every older one whose
lock nobody holds any more: a guarantee, not a guess from ages or process ids.

    <tmp>/unicum-sandbox-XXXX/.held    the lock (outside what commands see)
    <tmp>/unicum-sandbox-XXXX/data/    the folder handed out
"""

from __future__ import annotations

import fcntl
import os
import shutil
import tempfile
import weakref
from pathlib import Path

PREFIX = "unicum-sandbox-"
LOCK = ".held"
DATA = "data"


class HeldDir:
    """One held folder: `path` is what the caller uses; `release()` (or the object going away,
    or the interpreter's exit) removes it."""

    def __init__(self, kind: str = "", parent: str | None = None) -> None:
        parent = parent or tempfile.gettempdir()
        sweep(parent)
        self.root = Path(tempfile.mkdtemp(prefix=f"{PREFIX}{kind}", dir=parent))
        self._fd = _hold(self.root)
        self.path = self.root / DATA
        self.path.mkdir(mode=0o700)
        self._finalizer = weakref.finalize(self, _remove, self.root, self._fd)

    def release(self) -> None:
        self._finalizer()


def _hold(root: Path) -> int:
    """Lock a new file, then name it `.held`: a sweeper never sees the name unlocked."""
    staged = root / f"{LOCK}.new"
    fd = os.open(staged, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    os.rename(staged, root / LOCK)
    return fd


def _remove(root: Path, fd: int) -> None:
    shutil.rmtree(root, ignore_errors=True)
    os.close(fd)  # the lock goes last: nobody sweeps a folder being removed


def sweep(parent: str) -> list[Path]:
    """Remove the held folders under `parent` whose process is gone; returns them."""
    removed = []
    try:
        names = [n for n in os.listdir(parent) if n.startswith(PREFIX)]
    except OSError:
        return removed
    for name in names:
        root = Path(parent, name)
        if _abandoned(root):
            shutil.rmtree(root, ignore_errors=True)
            removed.append(root)
    return removed


def _abandoned(root: Path) -> bool:
    """Its lock file exists and nobody holds it (a folder without one is not ours to judge)."""
    try:
        fd = os.open(root / LOCK, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)
