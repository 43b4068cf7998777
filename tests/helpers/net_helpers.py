"""Loopback servers standing for internet hosts in sandbox tests and bench (there is no real
internet here): a small web site that is also a package index (a wheel built here), a TCP
listener and an abstract Unix socket listener counting who connects."""

from __future__ import annotations

import io
import json
import os
import socket
import sys
import tarfile
import threading
import zipfile
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

WHEEL = "demo_pkg-1.0-py3-none-any.whl"


class Site:
    """An HTTP server on 127.0.0.1 serving `root`: `/ok.txt`, a `/simple/` package index and
    an npm registry of one package."""

    def __init__(self, root: Path) -> None:
        (root / "simple" / "demo-pkg").mkdir(parents=True, exist_ok=True)
        (root / "ok.txt").write_text("site-ok\n")
        (root / "simple" / "demo-pkg" / WHEEL).write_bytes(wheel())
        (root / "simple" / "demo-pkg" / "index.html").write_text(f'<a href="{WHEEL}">{WHEEL}</a>\n')
        (root / "npm").mkdir(exist_ok=True)
        (root / "npm" / "demo-npm-pkg-1.0.0.tgz").write_bytes(npm_tarball())
        self.root = root
        self.hits = 0
        site = self

        class Handler(SimpleHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                site.hits += 1

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(root)))
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def pip_install(self, host: str) -> str:
        """A pip install of demo-pkg from this index under the name `host`."""
        return (
            f"{sys.executable} -m pip install -q --no-cache-dir --disable-pip-version-check "
            f"--index-url http://{host}:{self.port}/simple/ --trusted-host {host} "
            "--target build/pkgs demo-pkg "
            "&& ls build/pkgs"
        )

    def npm_install(self, host: str) -> str:
        """An npm install of demo-npm-pkg from this site as the npm registry `host`."""
        packument = {
            "name": "demo-npm-pkg",
            "dist-tags": {"latest": "1.0.0"},
            "versions": {
                "1.0.0": {
                    "name": "demo-npm-pkg",
                    "version": "1.0.0",
                    "dist": {"tarball": f"http://{host}:{self.port}/npm/demo-npm-pkg-1.0.0.tgz"},
                }
            },
        }
        (self.root / "demo-npm-pkg").write_text(json.dumps(packument))
        return (
            f"npm install --registry http://{host}:{self.port}/ --no-audit --no-fund "
            "--cache /tmp/npm-cache demo-npm-pkg >/dev/null && ls node_modules"
        )

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Listener:
    """A listener counting its connections: TCP on 127.0.0.1, or an abstract Unix socket."""

    def __init__(self, abstract: bool = False) -> None:
        if abstract:
            self.name = f"unicum-test-{os.getpid()}-{id(self)}"
            self.sock = socket.socket(socket.AF_UNIX)
            self.sock.bind("\0" + self.name)
        else:
            self.sock = socket.socket()
            self.sock.bind(("127.0.0.1", 0))
            self.port = self.sock.getsockname()[1]
        self.sock.listen(8)
        self.hits = 0
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.hits += 1
            conn.close()

    def probe(self) -> str:
        """A raw connection from Python (no proxy): what a program ignoring HTTPS_PROXY does."""
        if hasattr(self, "name"):
            where = f"'\\0{self.name}'"
            return f'python3 -c "import socket; socket.socket(socket.AF_UNIX).connect({where})"'
        target = f"('127.0.0.1', {self.port})"
        return f'python3 -c "import socket; socket.create_connection({target}, 3)"'

    def close(self) -> None:
        self.sock.close()


def npm_tarball() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, text in (
            ("package/package.json", '{"name": "demo-npm-pkg", "version": "1.0.0"}\n'),
            ("package/index.js", "module.exports = 1;\n"),
        ):
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def wheel() -> bytes:
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
