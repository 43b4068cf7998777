"""One process owns a session's transcript: an exclusive lock on `<session>.lock` beside it,
held while the session is open (the system releases it when the process ends, even killed)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import BinaryIO

from my_agent.private import open_private, private_dir

if os.name == "nt":  # pragma: no cover - exercised on Windows only
    import msvcrt
else:
    import fcntl


class SessionBusy(Exception):
    """The session is open in another Unicum process (the message is one line)."""


class SessionLock:
    """Held from `claim` until `release` (or the process ends)."""

    def __init__(self, path: Path, handle: BinaryIO) -> None:
        self.path, self._handle = path, handle

    @classmethod
    def claim(cls, transcript: Path) -> SessionLock:
        """Take the session's lock, or raise SessionBusy naming the process that holds it."""
        path = transcript.with_suffix(".lock")
        private_dir(path.parent)
        handle = open_private(path, "a+b")  # held for the session's life
        try:
            _lock(handle)
        except OSError:
            handle.seek(0)
            holder = handle.read(20).decode("ascii", errors="replace").strip()
            handle.close()
            who = f" (process {holder})" if holder.isdigit() else ""
            raise SessionBusy(
                f"session {transcript.stem} is open in another Unicum process{who}; "
                "close it there first, or start a new session"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()).encode("ascii"))
        handle.flush()
        return cls(path, handle)

    def release(self) -> None:
        if not self._handle.closed:
            self._handle.close()  # closing the file drops the lock


def _lock(handle: BinaryIO) -> None:
    if os.name == "nt":  # pragma: no cover - exercised on Windows only
        msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
    else:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
