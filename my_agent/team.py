"""A team's shared database: where it is, who is using it, which project, and its migrations.

`UNICUM_DATABASE_URL` (or config.json `database_url`) puts project memory and the ledger in
PostgreSQL. The user is `UNICUM_USER`, config.json `user`, or the login name; the project is
`UNICUM_PROJECT`, config.json `project`, or the git remote `origin` of the folder (the same on
every machine), else the local project id. Nothing here imports a database driver.
"""

from __future__ import annotations

import getpass
import hashlib
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from my_agent.capped import CONFIG, read_capped_text
from my_agent.home import project_id, read_user_config

DATABASE_ENV = "UNICUM_DATABASE_URL"
USER_ENV = "UNICUM_USER"
PROJECT_ENV = "UNICUM_PROJECT"
CONNECT_TIMEOUT_S = 3
_ORIGIN = re.compile(r'\[remote "origin"\][^\[]*?\burl\s*=\s*(\S+)', re.S)


def database_url() -> str:
    """The team database's URL, or "" for the embedded stores (JSON memory, SQLite ledger)."""
    url = os.environ.get(DATABASE_ENV) or read_user_config().get("database_url") or ""
    return str(url).strip()


def user_name() -> str:
    name = os.environ.get(USER_ENV) or read_user_config().get("user") or ""
    if not name:
        try:
            name = getpass.getuser()
        except (KeyError, OSError):
            name = "unknown"
    return str(name)


def team_project(workspace: Path) -> str:
    """The project's name in the shared database: the same on every machine of the team."""
    name = os.environ.get(PROJECT_ENV) or read_user_config().get("project") or ""
    if name:
        return str(name)
    resolved = workspace.expanduser().resolve()
    try:
        found = _ORIGIN.search(read_capped_text(resolved / ".git" / "config", CONFIG))
    except (OSError, UnicodeDecodeError):
        found = None
    if found:
        url = found.group(1).removesuffix(".git").rstrip("/")
        digest = hashlib.sha256(url.encode("utf-8")).hexdigest()[:10]
        return f"{re.split(r'[/:]', url)[-1] or 'repo'}-{digest}"
    return project_id(resolved)


_PASSWORD_PARAM = re.compile(r"(password\s*=\s*)('[^']*'|[^&\s]*)", re.IGNORECASE)


def url_password(url: str) -> str:
    """What stands where a URL's password would, even in a malformed URL (between the first
    `:` after the scheme and the last `@`); "" when there is none."""
    if "@" not in url:
        return ""
    head = url.rpartition("@")[0]
    start = head.find("://")
    colon = head.find(":", start + 3 if start >= 0 else 0)
    return head[colon + 1 :] if colon >= 0 else ""


def describe_url(url: str) -> str:
    """The URL without its password, for messages (malformed ones too)."""
    secret = url_password(url)
    if secret:
        head, _, tail = url.rpartition("@")
        url = f"{head[: len(head) - len(secret)]}***@{tail}"
    return _PASSWORD_PARAM.sub(r"\1***", url)


def one_line(exc: BaseException, url: str = "") -> str:
    """A driver's error as one line (psycopg adds hints on further lines), without the
    password of `url` or any `password=` it quotes."""
    lines = str(exc).strip().splitlines()
    text = lines[0].strip() if lines else type(exc).__name__
    secret = url_password(url)
    # a driver may split a malformed URL elsewhere: every longer piece of it goes too
    for piece in sorted({secret, *re.split(r"[@:/?&]", secret)}, key=len, reverse=True):
        if len(piece) >= 3:
            text = text.replace(piece, "***")
    return _PASSWORD_PARAM.sub(r"\1***", text)


Migration = Callable[[Any], None]  # takes an open connection inside a transaction
MIGRATION_LOCK = 0x554E4943  # "UNIC": the advisory lock every migration runs under


def migrate(conn: Any, component: str, steps: Sequence[Migration]) -> None:
    """Apply `component`'s migrations not applied yet, in one transaction under an advisory
    lock, so several processes starting at once migrate once. `conn` is a psycopg connection."""
    if _version(conn, component) == len(steps):
        return  # up to date: an ordinary team role needs no right to create anything
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS unicum_schema "
            "(component TEXT PRIMARY KEY, version INTEGER NOT NULL)"
        )
        row = conn.execute(
            "SELECT version FROM unicum_schema WHERE component = %s", (component,)
        ).fetchone()
        version = row[0] if row else 0
        if version > len(steps):
            raise RuntimeError(
                f"the team database's {component} schema is version {version}, newer than "
                f"this Unicum knows ({len(steps)}): upgrade Unicum"
            )
        for step in steps[version:]:
            step(conn)
        conn.execute("GRANT SELECT ON unicum_schema TO PUBLIC")
        conn.execute(
            "INSERT INTO unicum_schema VALUES (%s, %s) "
            "ON CONFLICT (component) DO UPDATE SET version = excluded.version",
            (component, len(steps)),
        )


def _version(conn: Any, component: str) -> int:
    """The component's schema version, read without a lock (-1: no schema table yet)."""
    row = conn.execute("SELECT to_regclass('unicum_schema') IS NOT NULL").fetchone()
    if not row or not row[0]:
        return -1
    found = conn.execute(
        "SELECT version FROM unicum_schema WHERE component = %s", (component,)
    ).fetchone()
    return found[0] if found else 0
