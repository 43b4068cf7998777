"""Every subcommand piped into a reader that has already gone (`… | head`) exits quietly: no
BrokenPipeError, no 'Exception ignored' at exit."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT

COMMANDS = [
    ["codemap", "refs", "foo", "--json"],
    ["codemap", "refs", "foo"],
    ["codemap", "impact", "foo", "--json"],
    ["codemap", "outline", "m.py"],
    ["codemap", "stats"],
    ["memory", "list"],
    ["usage"],
    ["usage", "--json"],
    ["usage", "tasks"],
    ["mcp", "list"],
    ["plugins"],
    ["--help"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_a_subcommand_into_a_closed_pipe_exits_quietly(argv, workspace):
    (workspace / "m.py").write_text("def foo():\n    return 1\n\n\ndef bar():\n    return foo()\n")
    if argv[0] in ("codemap", "memory", "mcp"):
        argv = [argv[0], "--dir", str(workspace), *argv[1:]]
    read, write = os.pipe()
    os.close(read)  # the reader is gone before a byte is written
    try:
        proc = subprocess.run(
            [sys.executable, str(ROOT / "cli.py"), *argv],
            stdout=write,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write)
    assert proc.stderr == "", proc.stderr
    assert proc.returncode in (0, 1), proc.returncode
