"""Limits that bind root too, through the real CLI and the real sandbox: a command's processes
are counted in a cgroup of its own (`ulimit -u` does not bind uid 0), so a fork loop stops at
the limit, and the command cannot raise it; where no cgroup is writable and Unicum runs as
root, start-up says in one line that the process limit is not enforced."""

from __future__ import annotations

import json
import os

import pytest

from tests.helpers.sandbox_helpers import (
    new_world,
    remove,
    sandbox_cli,
    sandbox_problem,
    tool_results,
)
from tools.cgroups import CommandCgroups

PROBLEM = sandbox_problem()
pytestmark = pytest.mark.skipif(bool(PROBLEM), reason=f"no sandbox: {PROBLEM}")
ENFORCED = "pids" in CommandCgroups({"pids": 64}).enforced
FORK_LOOP = (
    "python3 -c 'import os, time\n"
    "n = 0\n"
    "try:\n"
    "    for _ in range(400):\n"
    "        if os.fork() == 0:\n"
    "            time.sleep(30); os._exit(0)\n"
    "        n += 1\n"
    "except OSError as e:\n"
    '    print("stopped", e.strerror)\n'
    'print("forked", n)\''
)


@pytest.fixture
def world():
    root, home, project, _ = new_world()
    config = home / ".unicum-agent" / "config.json"
    config.write_text(json.dumps({"sandbox": {"limits": {"pids": 64}}}))
    yield home, project
    remove(root)


@pytest.mark.skipif(not ENFORCED, reason="no writable cgroup here")
def test_a_fork_loop_stops_at_the_process_limit(llm, world):
    home, project = world
    llm.call("terminal", {"command": FORK_LOOP})
    raise_it = "for f in /sys/fs/cgroup/*/unicum-*/pids.max /sys/fs/cgroup/unicum-*/pids.max; "
    raise_it += "do [ -e $f ] && echo max > $f && echo raised $f; done; echo tried"
    llm.call("terminal", {"command": raise_it})
    llm.reply("done")
    done = sandbox_cli(llm, home, project, "--permission-mode", "yolo")
    assert done.returncode == 0, done.stderr
    outputs = tool_results(llm)
    forked = int(outputs[0].split("forked ")[1].split()[0])
    assert "stopped" in outputs[0] and forked < 64, outputs[0]
    assert "raised" not in outputs[1] and "tried" in outputs[1], outputs[1]
    assert "not enforced" not in done.stderr + done.stdout


@pytest.mark.skipif(ENFORCED or os.geteuid() != 0, reason="the limit is enforced here")
def test_root_without_a_cgroup_is_told_the_limit_is_not_enforced(llm, world):
    home, project = world
    llm.reply("done")
    done = sandbox_cli(llm, home, project)
    assert "the process limit is not enforced" in done.stderr, done.stderr
