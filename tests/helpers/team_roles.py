"""Two ordinary login roles on the test PostgreSQL, the schema migrated by its admin, and git
checkouts naming one origin (shared by the team-isolation tests of memory and ledger)."""

from __future__ import annotations

import subprocess
import uuid
from pathlib import Path

import psycopg
import pytest

ORIGIN = "git@example.com:acme/private-shop.git"


@pytest.fixture
def roles(pg_url: str):
    """Two ordinary login roles on the test server, the schema migrated by the admin."""
    from core.ledger import open_team_ledger
    from core.memory import open_team_memory

    suffix = uuid.uuid4().hex[:8]
    names = [f"alice_{suffix}", f"bob_{suffix}"]
    with psycopg.connect(pg_url, autocommit=True) as admin:
        for name in names:
            admin.execute(f"CREATE ROLE {name} LOGIN")
    open_team_memory(Path("/nonexistent-home"), Path.cwd(), pg_url)  # the admin migrates
    open_team_ledger(pg_url).close()
    base, _, database = pg_url.rpartition("/")
    host = base.split("@", 1)[1]
    yield {n.split("_")[0]: f"postgresql://{n}@{host}/{database}" for n in names}
    with psycopg.connect(pg_url, autocommit=True) as admin:
        for name in names:
            admin.execute(f"DROP ROLE {name}")


def checkout(folder: Path) -> Path:
    folder.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    subprocess.run(["git", "-C", str(folder), "remote", "add", "origin", ORIGIN], check=True)
    return folder
