"""A realistic project memory: what sessions on a small web service would have written, with the
near-duplicates, stale entries and entries about deleted files that real use leaves behind."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

DAY = 86400.0
FILES = [
    "src/app/main.py",
    "src/app/auth/login.py",
    "src/app/auth/tokens.py",
    "src/app/db/models.py",
    "src/app/db/migrations/env.py",
    "src/app/api/routes.py",
    "src/app/api/middleware.py",
    "src/app/billing/invoices.py",
    "src/app/workers/queue.py",
    "tests/test_auth.py",
    "tests/test_billing.py",
    "docker/Dockerfile",
]
DELETED = ["src/app/legacy/oldauth.py", "scripts/deploy_v1.sh"]

NOTES: list[tuple[str, str, str]] = [  # key, type, content
    ("note:user-answers", "user", "The user prefers short answers with code first, prose after"),
    ("note:user-lang", "user", "The user writes commit messages in English, imperative mood"),
    ("note:fb-no-mocks", "feedback", "Do not mock the database in tests; use the sqlite fixture"),
    ("note:fb-ask", "feedback", "Ask before running database migrations against staging"),
    ("note:fb-format", "feedback", "Run ruff format before every commit, the CI rejects diffs"),
    ("note:proj-stack", "project", "Backend is FastAPI with SQLAlchemy 2 and Alembic migrations"),
    ("note:proj-queue", "project", "Background jobs run on a Redis queue consumed by workers"),
    ("note:proj-billing", "project", "Invoices are generated nightly by the billing worker"),
    ("note:proj-auth", "project", "Login issues JWT access tokens valid for 15 minutes"),
    ("note:proj-refresh", "project", "Refresh tokens are stored hashed in the sessions table"),
    ("note:ref-dash", "reference", "Grafana dashboard for API latency: grafana.internal/d/api"),
    ("note:ref-runbook", "reference", "Incident runbook lives in the ops wiki under On-call"),
    ("note:ref-tickets", "reference", "Bugs are tracked in Linear project BACK"),
    ("command:test", "commands", "test: `pytest -q` (pytest)"),
    ("command:lint", "commands", "lint: `ruff check .` (ruff)"),
    ("command:migrate", "commands", "migrate: `alembic upgrade head` (alembic)"),
    ("command:dev", "commands", "run: `uvicorn app.main:app --reload` (uvicorn)"),
    ("conv:tests", "conventions", "Python tests in tests/ as test_*.py"),
    ("conv:types", "conventions", "Type hints everywhere; mypy runs in strict mode"),
    ("note:n-cache", "notes", "The cache layer wraps Redis with a 5 minute default TTL"),
    ("note:n-config", "notes", "Configuration is read from environment variables via pydantic"),
    ("note:n-logging", "notes", "Logging uses structlog with JSON output in production"),
    ("note:n-deploy", "notes", "Deploys go through GitHub Actions to the Kubernetes cluster"),
    ("note:n-metrics", "notes", "Prometheus metrics are exposed on /metrics by middleware"),
    ("note:n-ratelimit", "notes", "Rate limiting is done per API key in the middleware"),
    ("note:n-email", "notes", "Emails are sent through the SES client in app/notify"),
]
# near-duplicates of entries above, written by later sessions (newer, with hits of their own)
DUPLICATES: list[tuple[str, str, str, str]] = [  # key, type, content, duplicate of
    (
        "note:user-answers-2",
        "user",
        "User prefers short answers, code first and prose after.",
        "note:user-answers",
    ),
    (
        "note:fb-no-mocks-2",
        "feedback",
        "Do not mock the database in tests, use the sqlite fixture",
        "note:fb-no-mocks",
    ),
    (
        "note:proj-queue-2",
        "project",
        "Background jobs run on a Redis queue consumed by the workers",
        "note:proj-queue",
    ),
    (
        "note:n-cache-2",
        "notes",
        "The cache layer wraps Redis with a 5-minute default TTL",
        "note:n-cache",
    ),
    (
        "note:n-cache-3",
        "notes",
        "the cache layer wraps redis with a 5 minute default ttl.",
        "note:n-cache",
    ),
]
STALE = [  # notes no session confirmed for a long time
    ("note:stale-celery", "notes", "Background jobs used Celery with RabbitMQ before the rewrite"),
    ("note:stale-py38", "notes", "CI runs on Python 3.8 and 3.9 only"),
    ("note:stale-flask", "project", "The admin panel is a separate Flask app on port 5001"),
]
STALE_USER = ("note:user-tabs", "user", "The user indents with four spaces, never tabs")


def _row(key: str, kind: str, content: str, updated: float, **extra: Any) -> dict[str, Any]:
    return {
        "key": key,
        "type": kind,
        "content": content,
        "id": f"{abs(hash(key)) % 16**8:08x}",
        "source": "earlier-session",
        "created": updated - 3 * DAY,
        "updated": updated,
        **extra,
    }


def write_corpus(memory_file: Path, workspace: Path, now: float | None = None) -> dict[str, Any]:
    """Write the project's files (not the deleted ones) and its memory file (an older layout,
    as a person or an older Unicum might have left it); returns what a test checks."""
    now = time.time() if now is None else now
    for path in FILES:
        (workspace / path).parent.mkdir(parents=True, exist_ok=True)
        (workspace / path).write_text("x = 1\n")
    rows = []
    for i, path in enumerate(FILES + DELETED):
        meta = {"path": path, "language": "Python", "lines": 40 + i}
        rows.append(
            _row(
                f"file:{path}",
                "files",
                f"{path}: Python, {40 + i} lines",
                now - i * DAY,
                meta=meta,
                hits=i % 3,
            )
        )
    rows.append(  # a reference about a file that was deleted too
        _row(
            "note:ref-oldauth",
            "reference",
            "Old auth flow documented in scripts/deploy_v1.sh",
            now - 9 * DAY,
            meta={"path": DELETED[1]},
        )
    )
    for i, (key, kind, content) in enumerate(NOTES):
        rows.append(_row(key, kind, content, now - (i + 5) * DAY, hits=2))
    for i, (key, kind, content, _) in enumerate(DUPLICATES):
        rows.append(_row(key, kind, content, now - i * 0.1 * DAY, hits=1))
    for key, kind, content in STALE:
        rows.append(_row(key, kind, content, now - 200 * DAY, meta={"seen": 1}))
    rows.append(_row(*STALE_USER, now - 300 * DAY, meta={"seen": 1}))
    memory_file.parent.mkdir(parents=True, exist_ok=True)
    memory_file.write_text(json.dumps({"version": 1, "entries": rows}, indent=1))
    return {"rows": len(rows), "now": now}
