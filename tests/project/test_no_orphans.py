"""No process the tests start outlives them: the conftest fixture sees a helper script or a
`cli.py` run left running, and the mute MCP test server ends when its client goes (its stdin
closes)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT
from tests.helpers.mcp_helpers import SERVER
from tests.helpers.processes import helper_processes, left_running, now_ticks


def test_a_helper_left_running_is_seen_and_the_mute_server_ends_with_its_client():
    since = now_ticks()
    proc = subprocess.Popen([sys.executable, SERVER, "hang"], stdin=subprocess.PIPE)
    try:
        assert proc.pid in helper_processes(since)  # what the fixture would report
        proc.stdin.write(b'{"jsonrpc": "2.0", "id": 1, "method": "initialize"}\n')
        proc.stdin.close()  # the client is gone (as when a killed unicum's pipe closes)
        assert left_running(since) == {}
        assert proc.wait(5) == 0
    finally:
        proc.kill()
        proc.wait()


def test_a_cli_run_left_running_is_seen_too():
    since = now_ticks()
    # a stand-in with this checkout's cli.py on its command line, as a REPL or `serve` has
    stand_in = [sys.executable, "-c", "import sys; sys.stdin.read()", str(ROOT / "cli.py")]
    proc = subprocess.Popen(stand_in, stdin=subprocess.PIPE)
    try:
        assert proc.pid in helper_processes(since)
        proc.stdin.close()
        assert left_running(since) == {}
    finally:
        proc.kill()
        proc.wait()
