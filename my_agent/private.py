"""The Unicum home is private: its folders are created 0700 and its files 0600 (snapshots,
transcripts, archives, the ledger, logs, locks), whatever the umask; a file or folder left
with wider bits by an older version is narrowed when it is next opened."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO, Any

DIR_MODE, FILE_MODE = 0o700, 0o600
_FLAGS = {
    "a": os.O_WRONLY | os.O_CREAT | os.O_APPEND,
    "ab": os.O_WRONLY | os.O_CREAT | os.O_APPEND,
    "a+b": os.O_RDWR | os.O_CREAT | os.O_APPEND,
    "w": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
    "wb": os.O_WRONLY | os.O_CREAT | os.O_TRUNC,
}


def private_dir(path: Path) -> Path:
    """`mkdir -p` where every folder it creates is 0700."""
    missing = [p for p in [path, *path.parents] if not p.exists()]
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=DIR_MODE)
        except FileExistsError:
            pass
        os.chmod(folder, DIR_MODE)  # the umask may have narrowed it further, never wider
    return path


def open_private(path: Path, mode: str = "a", **kwargs: Any) -> IO[Any]:
    """`open(path, mode)` creating the file 0600 (and its missing folders 0700); an existing
    file of ours with wider bits is narrowed to 0600."""
    private_dir(path.parent)
    fd = os.open(path, _FLAGS[mode] | getattr(os, "O_CLOEXEC", 0), FILE_MODE)
    try:
        if os.fstat(fd).st_mode & 0o077:
            os.fchmod(fd, FILE_MODE)
        return os.fdopen(fd, mode, **kwargs)
    except BaseException:
        os.close(fd)
        raise


def narrow(path: Path, mode: int = FILE_MODE) -> None:
    """chmod `path` to `mode` when it exists and is wider (a database made by a library)."""
    try:
        if path.stat().st_mode & 0o777 & ~mode:
            os.chmod(path, mode)
    except OSError:
        pass


def write_private(path: Path, text: str) -> None:
    with open_private(path, "w", encoding="utf-8") as fh:
        fh.write(text)
