"""A closed terminal (SIGHUP) or a `kill` (SIGTERM) ends the session as `/quit` does: the
ledger flushed, memory saved, the transcript closed, MCP servers and sandbox folders gone.
Python's default for both signals is to die on the spot, doing none of it."""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

SIGNALS = (signal.SIGHUP, signal.SIGTERM)


@contextmanager
def end_cleanly_on_hangup() -> Iterator[None]:
    """Inside, the first SIGHUP or SIGTERM raises SystemExit(128 + signal) in the main thread
    (every `finally` and exit handler runs); a second one kills as before. The handlers found
    are restored on the way out (a test calling `main` in its process keeps its own). Only
    the main thread may set handlers: elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    found = {sig: signal.getsignal(sig) for sig in SIGNALS}
    for sig, handler in found.items():
        if handler is signal.SIG_DFL:  # a parent's choice (nohup) stays
            signal.signal(sig, _exit)
    try:
        yield
    finally:
        for sig, handler in found.items():
            signal.signal(sig, handler)


def _exit(signum: int, frame: FrameType | None) -> None:
    for sig in SIGNALS:
        signal.signal(sig, signal.SIG_DFL)  # closing up may not hang: a second one kills
    if signum == signal.SIGHUP:  # the terminal is gone: what is written to it would fail
        _to_devnull()
    raise SystemExit(128 + signum)


def _to_devnull() -> None:
    devnull = os.open(os.devnull, os.O_RDWR)
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        try:
            os.dup2(devnull, stream.fileno())
        except (OSError, ValueError, AttributeError):  # a replaced or closed stream
            continue
    os.close(devnull)
