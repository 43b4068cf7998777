"""A stdio server's stderr through a pipe the hub's event loop reads: each chunk goes to the
server's log file, and the first one tells the hub the server is alive (its start-up deadline
counts from its first output, not from the moment we spawned it)."""

from __future__ import annotations

import codecs
import contextlib
import os
from collections.abc import Callable
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio

CHUNK = 65536


class StderrTap:
    """`stream` is the write end to hand the SDK as the child's stderr; `close` at the end."""

    def __init__(
        self, log: IO[str], loop: asyncio.AbstractEventLoop, heard: Callable[[], None]
    ) -> None:
        read_fd, write_fd = os.pipe()
        os.set_blocking(read_fd, False)
        self.stream: IO[str] = os.fdopen(write_fd, "w", encoding="utf-8")
        self._fd: int | None = read_fd
        self._log, self._loop, self._heard = log, loop, heard
        self._text = codecs.getincrementaldecoder("utf-8")("replace")
        loop.add_reader(read_fd, self._read)

    def _read(self) -> bool:
        """One chunk into the log; False when there is nothing more to read now."""
        if self._fd is None:
            return False
        try:
            data = os.read(self._fd, CHUNK)
        except BlockingIOError:
            return False
        except OSError:
            data = b""
        if not data:  # every writer gone (the server ended, our end closed)
            self._stop()
            return False
        self._heard()
        self._log.write(self._text.decode(data))
        self._log.flush()
        return True

    def _stop(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(Exception):  # the loop may be closing
            self._loop.remove_reader(self._fd)
        os.close(self._fd)
        self._fd = None

    def close(self) -> None:
        """Keep what the server wrote last (without waiting for more), then close both ends."""
        with contextlib.suppress(OSError, ValueError):
            self.stream.close()
        for _ in range(64):
            if not self._read():
                break
        self._stop()
