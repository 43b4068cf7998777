"""The world bench/sandbox_escapes.py attacks: a fake HOME of credential files and toolchains,
a git project with agent configuration, a loopback listener, an ssh-agent, a local package
index, and commands run for real in the session's bwrap sandbox."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import socket
import subprocess
import sys
import threading
import zipfile
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from tests.helpers.sandbox_helpers import make_home, make_project
from tools.sandbox import Sandbox, SandboxPolicy
from tools.shell import decode_output, run_command

CREDENTIALS = {
    ".npmrc": "//registry.npmjs.org/:_authToken=SENTINEL-NPM",
    ".pgpass": "db:5432:*:me:SENTINEL-PGPASS",
    ".bash_history": "export TOKEN=SENTINEL-HISTORY",
    ".zsh_history": "SENTINEL-ZSH",
    ".python_history": "SENTINEL-PYHIST",
    ".pypirc": "password = SENTINEL-PYPI",
    ".cargo/credentials.toml": "token = SENTINEL-CARGO",
    ".config/some-agent/auth.json": "SENTINEL-AGENT",
    ".codex/auth.json": "SENTINEL-CODEX",
    ".config/gh/hosts.yml": "oauth_token: SENTINEL-GH",
    ".kube/config": "token: SENTINEL-KUBE",
    ".gnupg/private.key": "SENTINEL-GPG",
    ".ssh/id_ed25519": "SENTINEL-SSH",
    ".aws/credentials": "SENTINEL-AWS",
    "other-project/.env": "SECRET=SENTINEL-OTHER-ENV",
    ".local/share/keyrings/login.keyring": "SENTINEL-KEYRING",
}


class EscapeWorld:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = make_home(root)
        for rel, text in CREDENTIALS.items():
            (self.home / rel).parent.mkdir(parents=True, exist_ok=True)
            (self.home / rel).write_text(text + "\n")
            (self.home / rel).chmod(0o600)
        self.credentials = list(CREDENTIALS)
        tool = self.home / ".local" / "bin" / "mytool"
        tool.parent.mkdir(parents=True, exist_ok=True)
        tool.write_text("#!/bin/sh\necho toolchain-ok\n")
        tool.chmod(0o755)
        self.unicum_home = self.home / ".unicum-agent"
        self.template = make_project(root / "template")
        self._agent_config(self.template)
        self.project = root / "work" / "project"
        self.pwned = root / "PWNED"
        os.environ["HOME"] = str(self.home)
        os.environ["PATH"] = f"{tool.parent}:{os.environ['PATH']}"
        self.reset()
        self.sandbox = Sandbox(SandboxPolicy(), self.project, self.unicum_home)
        self._listener = socket.socket()
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(16)
        self.port = self._listener.getsockname()[1]
        self.hits = 0
        threading.Thread(target=self._accept, daemon=True).start()
        self._index: ThreadingHTTPServer | None = None
        self._agent_pid = 0

    def _agent_config(self, project: Path) -> None:
        (project / ".claude").mkdir()
        (project / ".claude" / "settings.json").write_text('{"permissions": {}}\n')
        (project / ".mcp.json").write_text('{"mcpServers": {}}\n')
        (project / "AGENTS.md").write_text("Be careful.\n")
        pkg = project / "localpkg"
        pkg.mkdir()
        (pkg / "package.json").write_text('{"name": "localpkg", "version": "1.0.0"}\n')
        (project / "test_app.py").write_text(
            "import unittest\n\nclass T(unittest.TestCase):\n    def test_ok(self):\n        self.assertTrue(True)\n"
        )

    def reset(self) -> None:
        shutil.rmtree(self.project.parent, ignore_errors=True)
        self.project.parent.mkdir(parents=True)
        shutil.copytree(self.template, self.project, symlinks=True)
        self.pwned.unlink(missing_ok=True)

    def run(
        self, command: str, network: bool = False, env: dict[str, str] | None = None
    ) -> tuple[str, int]:
        saved = {k: os.environ.get(k) for k in env or {}}
        os.environ.update(env or {})
        try:
            out, code, _ = run_command(command, str(self.project), 60, self.sandbox, network)
        finally:
            for k, v in saved.items():
                os.environ.pop(k, None) if v is None else os.environ.__setitem__(k, v)
        return decode_output(bytes(out.head) + bytes(out.tail)), code

    def host_git(self, *args: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(self.project), *args], capture_output=True, text=True
        )
        return done.stdout

    def git_state(self) -> str:
        git = self.project / ".git"
        h = hashlib.sha256()
        for rel in ("config", "hooks", "info"):
            for path in sorted((git / rel).rglob("*")) if (git / rel).is_dir() else [git / rel]:
                h.update(str(path).encode() + (path.read_bytes() if path.is_file() else b"-"))
        return h.hexdigest() if git.is_dir() else "gone"

    def config_state(self) -> str:
        h = hashlib.sha256()
        for rel in (".claude", ".mcp.json", "AGENTS.md"):
            path = self.project / rel
            for p in sorted(path.rglob("*")) if path.is_dir() else [path]:
                h.update(str(p).encode() + (p.read_bytes() if p.is_file() else b"-"))
        return h.hexdigest()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self._listener.accept()
            except OSError:
                return
            self.hits += 1
            conn.close()

    def pip_install(self) -> str:
        """A pip install from a package index on the host's loopback (a wheel built here)."""
        if self._index is None:
            root = self.root / "index"
            (root / "simple" / "demo-pkg").mkdir(parents=True)
            wheel = "demo_pkg-1.0-py3-none-any.whl"
            (root / "simple" / "demo-pkg" / wheel).write_bytes(_wheel())
            (root / "simple" / "demo-pkg" / "index.html").write_text(
                f'<a href="{wheel}">{wheel}</a>\n'
            )
            handler = partial(_Quiet, directory=str(root))
            self._index = ThreadingHTTPServer(("127.0.0.1", 0), handler)
            threading.Thread(target=self._index.serve_forever, daemon=True).start()
        port = self._index.server_address[1]
        return (
            f"{sys.executable} -m pip install -q --no-cache-dir --index-url http://127.0.0.1:{port}/simple/ "
            "--target build/pkgs demo-pkg && ls build/pkgs"
        )

    def ssh_agent(self) -> Path:
        sock = self.home / ".config" / "agent" / "ssh.sock"
        if not self._agent_pid:
            sock.parent.mkdir(parents=True, exist_ok=True)
            done = subprocess.run(
                ["ssh-agent", "-a", str(sock), "-s"], capture_output=True, text=True
            )
            self._agent_pid = int(done.stdout.split("SSH_AGENT_PID=")[1].split(";")[0])
        return sock

    def close(self) -> None:
        self._listener.close()
        if self._index is not None:
            self._index.shutdown()
        if self._agent_pid:
            os.kill(self._agent_pid, 15)


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


def _wheel() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        z.writestr("demo_pkg/__init__.py", "VALUE = 1\n")
        info = "demo_pkg-1.0.dist-info"
        z.writestr(f"{info}/METADATA", "Metadata-Version: 2.1\nName: demo-pkg\nVersion: 1.0\n")
        z.writestr(
            f"{info}/WHEEL",
            "Wheel-Version: 1.0\nGenerator: bench\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        )
        z.writestr(f"{info}/RECORD", "")
    return buf.getvalue()
