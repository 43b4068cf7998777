"""What a sandboxed command can reach, through the real CLI and the real sandbox: the home is
deny-by-default (credential files of every kind unreadable, toolchains still there), the
network is off unless the user approves it for a command (or config allows it), the user's
agent sockets and exotic socket families are out of reach, and no `UNICUM_*` variable or URL
with credentials reaches a command."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from tests.helpers.net_helpers import Listener
from tests.helpers.sandbox_helpers import (
    new_world,
    remove,
    sandbox_cli,
    sandbox_problem,
    tool_results,
)

PROBLEM = sandbox_problem()
pytestmark = pytest.mark.skipif(bool(PROBLEM), reason=f"no sandbox: {PROBLEM}")
CREDENTIALS = {
    ".npmrc": "//registry.npmjs.org/:_authToken=SENTINEL-NPM\n",
    ".pgpass": "db:5432:*:me:SENTINEL-PGPASS\n",
    ".bash_history": "export TOKEN=SENTINEL-HISTORY\n",
    ".config/some-agent/auth.json": '{"token": "SENTINEL-AGENT"}\n',
    "other-project/.env": "SECRET=SENTINEL-OTHER-ENV\n",
    ".pypirc": "[pypi]\npassword = SENTINEL-PYPI\n",
    ".cargo/credentials.toml": 'token = "SENTINEL-CARGO"\n',
}


@pytest.fixture
def world():
    root, home, project, outside = new_world()
    for rel, text in CREDENTIALS.items():
        (home / rel).parent.mkdir(parents=True, exist_ok=True)
        (home / rel).write_text(text)
    tool = home / ".local" / "bin" / "mytool"
    tool.parent.mkdir(parents=True)
    tool.write_text("#!/bin/sh\necho toolchain-ok\n")
    tool.chmod(0o755)
    yield root, home, project
    remove(root)


@pytest.fixture
def listener():
    server = Listener()
    yield server
    server.sock.close()


def test_reads_under_home_are_deny_by_default(llm, world):
    _, home, project = world
    llm.call("terminal", {"command": "cat ~/.np*rc ~/.pgpass ~/.*history ~/.pypirc"})
    llm.call("terminal", {"command": "cat ~/.config/*/auth.json ~/other-project/.env"})
    llm.call("terminal", {"command": "cat ~/.cargo/credentials.toml; ls -a ~ ~/.config"})
    llm.call("terminal", {"command": "mytool && git --version && python3 -c 'print(7)'"})
    llm.reply("done")
    path = f"{home}/.local/bin:{os.environ['PATH']}"
    done = sandbox_cli(llm, home, project, "--permission-mode", "yolo", "--yes", env={"PATH": path})
    assert done.returncode == 0, done.stderr
    outputs = tool_results(llm)
    assert not any("SENTINEL" in o for o in outputs), outputs
    assert outputs[3].startswith("toolchain-ok"), outputs[3]  # toolchains stay readable
    assert "your home folder is empty for commands" in outputs[0]  # why, in one line


def test_network_is_off_by_default_and_says_how_to_ask(llm, world, listener):
    _, home, project = world
    through_proxy = f"curl -sS --noproxy '' --max-time 5 http://127.0.0.1:{listener.port}/"
    llm.call("terminal", {"command": listener.probe()})
    llm.call("terminal", {"command": through_proxy, "network": True})
    llm.reply("done")
    done = sandbox_cli(llm, home, project)  # -p, ask mode: nobody to approve the host
    assert done.returncode == 0, done.stderr
    outputs = tool_results(llm)
    assert listener.hits == 0, outputs
    assert "network: true" in outputs[0]  # the one line the model acts on
    assert "refused 127.0.0.1: nobody can approve a host in a non-interactive run" in outputs[1]


def test_network_approved_per_command_or_allowed_by_config(llm, world, listener):
    _, home, project = world
    through_proxy = f"curl -s --noproxy '' --max-time 5 http://127.0.0.1:{listener.port}/"
    llm.call("terminal", {"command": through_proxy, "network": True})
    llm.call("terminal", {"command": listener.probe(), "network": True})  # ignores the proxy
    llm.reply("done")
    done = sandbox_cli(llm, home, project, "--yes")  # the approval, given up front
    assert done.returncode == 0, done.stderr
    assert listener.hits == 1, tool_results(llm)
    assert "did not use it" in tool_results(llm)[1]
    config = home / ".unicum-agent" / "config.json"
    config.write_text(json.dumps({"sandbox": {"network_allow": ["curl"]}}))
    llm.call("terminal", {"command": through_proxy})  # allowed without asking
    llm.reply("done")
    done = sandbox_cli(llm, home, project)
    assert done.returncode == 0, done.stderr
    assert listener.hits == 2, tool_results(llm)


def test_agent_sockets_and_socket_families_are_out_of_reach(llm, world):
    root, home, project = world
    agent_dir = home / ".config" / "agent"
    agent_dir.mkdir(parents=True)
    sock = agent_dir / "ssh.sock"
    agent = subprocess.run(
        ["ssh-agent", "-a", str(sock), "-s"], capture_output=True, text=True, check=True
    )
    pid = int(agent.stdout.split("SSH_AGENT_PID=")[1].split(";")[0])
    try:
        connect = f"python3 -c \"import socket; socket.socket(socket.AF_UNIX).connect('{sock}')\""
        llm.call(
            "terminal", {"command": f"ssh-add -l; echo sock=${{SSH_AUTH_SOCK:-none}}; {connect}"}
        )
        vsock = "python3 -c 'import socket; socket.socket(socket.AF_VSOCK, socket.SOCK_STREAM)'"
        llm.call("terminal", {"command": f"{vsock} && echo vsock-open"})
        llm.call(
            "terminal", {"command": "ls -A /run/user; echo ${DBUS_SESSION_BUS_ADDRESS:-nobus}"}
        )
        llm.reply("done")
        env = {"SSH_AUTH_SOCK": str(sock), "DBUS_SESSION_BUS_ADDRESS": f"unix:path={sock}"}
        done = sandbox_cli(llm, home, project, "--permission-mode", "yolo", env=env)
    finally:
        os.kill(pid, 15)
    assert done.returncode == 0, done.stderr
    outputs = tool_results(llm)
    assert "sock=none" in outputs[0] and "The agent has no identities" not in outputs[0], outputs
    assert "No such file" in outputs[0] or "Connection refused" in outputs[0], outputs[0]
    assert "vsock-open" not in outputs[1] and "not supported" in outputs[1], outputs[1]
    assert outputs[2].startswith("nobus"), outputs[2]


def test_no_unicum_variable_or_credential_url_reaches_a_command(llm, world):
    _, home, project = world
    llm.call("terminal", {"command": "env | sort"})
    llm.reply("done")
    env = {
        "UNICUM_DATABASE_URL": "postgresql://team:fake-team-pass@127.0.0.1:9/db",
        "UNICUM_ANYTHING": "fake-unicum-value",
        "APP_SERVICE": "https://svc:fake-url-pass@example.com/x",
        "PLAIN_SETTING": "kept-value",
    }
    done = sandbox_cli(llm, home, project, "--permission-mode", "yolo", env=env)
    assert done.returncode == 0, done.stderr
    out = tool_results(llm)[0]
    assert "UNICUM_" not in out and "fake-" not in out, out
    assert "PLAIN_SETTING=kept-value" in out


def test_limits_on_memory_processes_and_file_size(llm, world):
    _, home, project = world
    config = home / ".unicum-agent" / "config.json"
    config.write_text(json.dumps({"sandbox": {"limits": {"memory_mb": 256, "pids": 512}}}))
    llm.call(
        "terminal", {"command": "python3 -c 'x = bytearray(512 * 1024 * 1024)' || echo no-memory"}
    )
    llm.call("terminal", {"command": "ulimit -u"})
    llm.call("terminal", {"command": "truncate -s 6G .git/info/exclude || echo too-large"})
    llm.call("terminal", {"command": "echo still-fine > after.txt && cat after.txt"})
    llm.reply("done")
    done = sandbox_cli(llm, home, project, "--permission-mode", "yolo")
    assert done.returncode == 0, done.stderr
    outputs = tool_results(llm)
    assert "no-memory" in outputs[0], outputs[0]
    assert outputs[1].startswith("512"), outputs[1]
    assert "too-large" in outputs[2]
    assert (project / ".git" / "info" / "exclude").stat().st_size < 1 << 30
    assert outputs[3].startswith("still-fine"), outputs[3]  # snapshots go on
