"""A real PostgreSQL server for the team-database tests, and a fresh database per test.

`UNICUM_TEST_DATABASE_URL` (what `.ci/run` exports) names a running server. Without it, and
with Debian's binaries installed, a throwaway cluster is started on a free loopback port (as
the `postgres` user when running as root) and stopped after the tests. Otherwise the tests
are skipped, with the reason.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

TEST_URL_ENV = "UNICUM_TEST_DATABASE_URL"


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _as_owner(args: list[str]) -> list[str]:
    """Run as `postgres` when we are root (the server refuses to run as root)."""
    if os.geteuid() != 0:
        return args
    return ["runuser", "-u", "postgres", "--", *args]


class Cluster:
    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.dir = Path(tempfile.mkdtemp(prefix="unicum-pg-"))
        self.port = _free_port()
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres")
        self.data = self.dir / "data"

    def start(self) -> str:
        run = {"check": True, "capture_output": True, "text": True, "timeout": 120}
        subprocess.run(
            _as_owner(
                [
                    str(self.bindir / "initdb"),
                    "-D",
                    str(self.data),
                    "-A",
                    "trust",
                    "-U",
                    "unicum",
                    "--no-sync",
                ]
            ),
            **run,  # fmt: skip
        )
        options = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            _as_owner(
                [
                    str(self.bindir / "pg_ctl"),
                    "-D",
                    str(self.data),
                    "-o",
                    options,
                    "-l",
                    str(self.dir / "log"),
                    "-w",
                    "start",
                ]
            ),
            **run,  # fmt: skip
        )
        return f"postgresql://unicum@127.0.0.1:{self.port}/postgres"

    def stop(self) -> None:
        subprocess.run(
            _as_owner(
                [str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop"]
            ),
            capture_output=True,
            timeout=60,  # fmt: skip
        )
        shutil.rmtree(self.dir, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[str]:
    """The URL of a PostgreSQL server's maintenance database."""
    url = os.environ.get(TEST_URL_ENV)
    if url:
        yield url
        return
    bindir = _binaries()
    if bindir is None:
        pytest.skip(f"no PostgreSQL: set {TEST_URL_ENV} or install Debian's postgresql")
    cluster = Cluster(bindir)
    try:
        url = cluster.start()
    except (subprocess.SubprocessError, OSError) as exc:
        detail = getattr(exc, "stderr", "") or exc
        cluster.stop()
        pytest.skip(f"PostgreSQL could not start here: {str(detail).strip()[:300]}")
    try:
        yield url
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_server: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A fresh, empty database on the test server, set as the team database."""
    import psycopg

    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute(f"CREATE DATABASE {name}")
    base, _, _ = pg_server.rpartition("/")
    url = f"{base}/{name}"
    monkeypatch.setenv("UNICUM_DATABASE_URL", url)
    yield url
    with psycopg.connect(pg_server, autocommit=True) as admin:
        admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
