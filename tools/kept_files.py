"""What a command is about to delete that the shadow repository does not hold (a git-ignored
file, one over its 10 MB): kept in the snapshot store first, so `/undo` and `/rewind` bring it
back like any other file.

A file is kept by a hard link when the store is on the same filesystem (free whatever its size:
`rm` removes a name, the bytes stay), else by a copy-on-write clone where the filesystem has
one, else by a copy of at most MAX_COPY bytes a command. `shred` overwrites the bytes before it
unlinks, so its targets are cloned or copied, never linked. A file that cannot be kept within
the cap is asked about as before (tools/workspace_guard.py: `/undo cannot bring it back`).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import time
from pathlib import Path

from my_agent.private import private_dir

MAX_COPY = 512 * 1024 * 1024  # bytes copied for one command, in all
FICLONE = 0x40049409  # linux/fs.h: a copy-on-write clone of a whole file
KEEP_DAYS = 14  # kept files of steps older than this are pruned


def keepable(path: Path, store: Path, copy_only: bool) -> bool:
    """Whether `path` can be kept in `store` (before knowing what else the command keeps): a
    hard link on the same filesystem, or a copy within the cap."""
    try:
        st = path.stat()
        if not copy_only and st.st_dev == _device(store):
            return True
        return st.st_size <= MAX_COPY
    except OSError:
        return False


def _device(store: Path) -> int:
    for folder in (store, *store.parents):
        with contextlib.suppress(OSError):
            return folder.stat().st_dev
    return -1


def keep(
    targets: list[tuple[Path, bool]], workspace: Path, folder: Path
) -> tuple[dict[str, str], list[str]]:
    """Keep each (path, copy_only) under `folder`: ({workspace-relative path: kept file},
    the relative paths that could not be kept)."""
    kept: dict[str, str] = {}
    missed: list[str] = []
    budget = MAX_COPY
    for path, copy_only in targets:
        rel = path.relative_to(workspace).as_posix()
        if rel in kept:
            continue
        dest = folder / rel
        try:
            private_dir(dest.parent)
            budget -= _keep_one(path, dest, copy_only, budget)
            kept[rel] = str(dest)
        except OSError:
            missed.append(rel)
    return kept, missed


def _keep_one(path: Path, dest: Path, copy_only: bool, budget: int) -> int:
    """Link, clone or copy `path` to `dest`; the bytes copied (0 for a link or a clone)."""
    if not copy_only:
        try:
            os.link(path, dest, follow_symlinks=False)
            return 0
        except OSError:
            pass
    with open(path, "rb") as src, open(dest, "wb") as out:  # in a 0700 folder
        os.fchmod(out.fileno(), os.fstat(src.fileno()).st_mode & 0o7777)  # put back as it was
        try:
            fcntl.ioctl(out.fileno(), FICLONE, src.fileno())
            return 0
        except OSError:
            pass
        size = os.fstat(src.fileno()).st_size
        if size > budget:
            out.close()
            dest.unlink(missing_ok=True)
            raise OSError(f"over the {MAX_COPY // (1024 * 1024)} MB a command may keep")
        shutil.copyfileobj(src, out, 1024 * 1024)
        return size


def put_back(kept: dict[str, str], workspace: Path) -> list[str]:
    """Kept files missing from the workspace now, restored (linked or copied back); the
    relative paths restored. A file that exists again is left as it is."""
    done: list[str] = []
    for rel, stored in kept.items():
        target = workspace / rel
        source = Path(stored)
        if os.path.lexists(target) or not source.is_file():
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.link(source, target)
            except OSError:
                shutil.copy2(source, target)
            done.append(rel)
        except OSError:
            continue
    return done


def forget(kept: dict[str, str]) -> None:
    """Drop the kept files of steps that are gone (undone, rewound)."""
    for stored in kept.values():
        with contextlib.suppress(OSError):
            os.unlink(stored)


def prune(top: Path, keep_days: float = KEEP_DAYS) -> None:
    """Remove step folders under `top` untouched for `keep_days` (housekeeping, never fails)."""
    if not top.is_dir():
        return
    cutoff = time.time() - keep_days * 86400
    for folder in top.iterdir():
        with contextlib.suppress(OSError):
            if folder.is_dir() and folder.stat().st_mtime < cutoff:
                shutil.rmtree(folder)
