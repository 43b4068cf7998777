"""Processes the tests start from this checkout's `tests/helpers/` scripts (the MCP test
server, ...) and its `cli.py` (a REPL, `unicum serve`), read from /proc, so a fixture can fail
a test that leaves one running."""

from __future__ import annotations

import os
import time
from pathlib import Path

from tests.conftest import ROOT

HELPERS = str(ROOT / "tests" / "helpers") + os.sep
CLI = str(ROOT / "cli.py")
GRACE = 60.0  # a hang-guard: a stopped session's children exit (SDK shutdown, loaded machine)


def _started(pid: str) -> int:
    """Start time in clock ticks since boot (field 22 of /proc/PID/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[19])


def now_ticks() -> int:
    return int(time.clock_gettime(time.CLOCK_BOOTTIME) * os.sysconf("SC_CLK_TCK"))


def helper_processes(since: int) -> dict[int, str]:
    """pid → command line of the running helper scripts and `cli.py` runs started at or
    after `since`."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            started = _started(entry.name)
        except (OSError, IndexError, ValueError):
            continue  # gone meanwhile
        args = [a.decode(errors="replace") for a in argv if a]
        line = " ".join(args)
        if (HELPERS in line or CLI in args) and state != "Z" and started >= since:
            found[int(entry.name)] = line
    return found


def left_running(since: int, grace: float = GRACE) -> dict[int, str]:
    """The helper processes started since `since` still alive after `grace` seconds."""
    deadline = time.monotonic() + grace
    while (alive := helper_processes(since)) and time.monotonic() < deadline:
        time.sleep(0.2)
    return alive
