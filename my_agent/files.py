"""Writing files safely: one atomic write and one inter-process lock for every writer."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from my_agent.home import unicum_home
from my_agent.private import private_dir

if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt
else:
    import fcntl


def atomic_write(path: Path, data: bytes, mode: int | None = None) -> None:
    """Temp file in the same folder, fsync, rename: readers see the old file or the new one,
    and a failed write leaves no temp file behind. The file keeps its permission bits, or
    takes `mode` when given (a new file otherwise gets mkstemp's owner-only bits). A folder
    made for it inside the Unicum home is 0700."""
    home = unicum_home().expanduser()
    if path.parent == home or home in path.parent.parents:
        private_dir(path.parent)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        bits = mode if mode is not None else _mode(path)
        if bits is not None:
            os.chmod(tmp, bits)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _mode(path: Path) -> int | None:
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        return None


@contextlib.contextmanager
def file_lock(path: Path) -> Iterator[None]:
    """An exclusive lock on `path` (a sidecar file), released on exit; blocks while held."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_APPEND | getattr(os, "O_CLOEXEC", 0), 0o600)
    with os.fdopen(fd, "a+b") as fh:
        if os.name == "nt":  # pragma: no cover - exercised on Windows only
            while True:
                try:
                    msvcrt.locking(fh.fileno(), msvcrt.LK_LOCK, 1)
                    break
                except OSError:
                    time.sleep(0.01)
            try:
                yield
            finally:
                fh.seek(0)
                msvcrt.locking(fh.fileno(), msvcrt.LK_UNLCK, 1)
        else:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


class UnsafePath(OSError):
    """A write refused: a symlink on the way, or a read-only file (the message says which)."""


_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)


def _open_dirs(root: Path, parts: tuple[str, ...]) -> int:
    """A descriptor of root/parts..., each folder opened without following a symlink (made
    when missing): a folder swapped for a symlink after the path was checked fails here."""
    fd = os.open(root, _DIR_FLAGS)
    try:
        for part in parts:
            if part in ("", ".", ".."):
                raise UnsafePath(f"unsafe path component {part!r}")
            try:
                os.mkdir(part, 0o777, dir_fd=fd)
            except FileExistsError:
                pass
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                raise UnsafePath(
                    f"{part} is a symlink or not a folder; nothing was written"
                ) from exc
            os.close(fd)
            fd = child
        return fd
    except BaseException:
        os.close(fd)
        raise


def _check_final(name: str, dfd: int) -> int | None:
    """The permission bits of an existing file `name` (None: absent); a symlink or a
    read-only file raises UnsafePath."""
    try:
        st = os.stat(name, dir_fd=dfd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(st.st_mode):
        raise UnsafePath(f"{name} is a symlink; nothing was written")
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        raise UnsafePath(
            f"{name} is read-only; nothing was written (make it writable first if it should change)"
        )
    return st.st_mode & 0o7777


def write_beneath(root: Path, target: Path, data: bytes) -> None:
    """Atomically write `target` (inside `root`, both resolved) through directory descriptors:
    no symlink is followed below `root` (a folder swapped for a link between check and write
    cannot send the bytes elsewhere), a read-only file is refused, and a failed write leaves
    no temp file behind."""
    if os.name == "nt" or not hasattr(os, "O_NOFOLLOW"):  # pragma: no cover - no dir fds
        return atomic_write(target, data)
    parts = target.relative_to(root).parts
    if not parts:
        raise UnsafePath(f"{target} is a folder")
    dfd = _open_dirs(root, parts[:-1])
    try:
        name = parts[-1]
        bits = _check_final(name, dfd)
        tmp = f".{name}.{os.urandom(4).hex()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=dfd)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
                if bits is not None:  # a new file keeps owner-only bits, as atomic_write
                    os.fchmod(fh.fileno(), bits)
            os.replace(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp, dir_fd=dfd)
            raise
    finally:
        os.close(dfd)


def read_resolved(target: Path, limit: int) -> bytes:
    """The bytes of `target` (an absolute path with its symlinks already resolved), at most
    `limit`, opened component by component without following a symlink: a file or folder
    swapped for a link after the path was checked fails instead of reading elsewhere; only a
    regular file is read (a device such as /dev/zero is refused)."""
    if os.name == "nt" or not hasattr(os, "O_NOFOLLOW"):  # pragma: no cover - no dir fds
        with open(target, "rb") as fh:
            return fh.read(limit)
    parts = target.parts
    dfd = os.open(parts[0], _DIR_FLAGS)
    try:
        for part in parts[1:-1]:
            try:
                child = os.open(part, _DIR_FLAGS, dir_fd=dfd)
            except OSError as exc:
                raise UnsafePath(f"{part} is a symlink or not a folder; nothing was read") from exc
            os.close(dfd)
            dfd = child
        try:
            fd = os.open(parts[-1], os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK, dir_fd=dfd)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise UnsafePath(f"{parts[-1]} became a symlink; nothing was read") from exc
            raise
    finally:
        os.close(dfd)
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
            raise UnsafePath(f"{target.name} is not a regular file; nothing was read")
        return fh.read(limit)
