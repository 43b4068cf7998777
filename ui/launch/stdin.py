"""Whether stdin is a pipe or a file to read a task from (not a terminal, not /dev/null)."""

from __future__ import annotations

import io
import os
import stat
import sys
from typing import IO


def is_piped(stream: IO[str] | None = None) -> bool:
    """True for `cmd | unicum` and `unicum < file`; False for a terminal, /dev/null, or a
    stream with no file behind it (an embedding program's, a test runner's)."""
    stream = sys.stdin if stream is None else stream
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISREG(mode) or stat.S_ISSOCK(mode)
