"""Which environment variables hold secrets, and redaction of their values from any text.

One table serves the shell (variables stripped from a command's environment), tool results,
transcripts, the debug log and memory (values replaced before the model or a file sees them).
Redacted: secret-named variables of the environment, every secret-looking value of the Unicum
home's and the project's `.env` (whatever the environment holds under the same name),
passwords in URLs, and key shapes found by detect-secrets (my_agent/secret_shapes.py).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from my_agent.capped import read_capped_text
from my_agent.secret_shapes import find_shapes

# a variable whose upper-cased name ends with one of these holds a secret
SECRET_SUFFIXES = (
    "_API_KEY",
    "_APIKEY",
    "_KEY",
    "_KEY_ID",
    "_TOKEN",
    "_SECRET",
    "_SECRET_KEY",
    "_ACCESS_KEY",
    "_PASSWORD",
    "_PASSWD",
    "_PAT",
    "_CREDENTIALS",
    "_CREDENTIAL",
    "_PEM",
    "_WEBHOOK_URL",
    "_WEBHOOK",
    "_DSN",
    "_AUTH",
)
MIN_SECRET_LEN = 8  # shorter values are too likely to occur in ordinary text
MAX_DOTENV_BYTES = 256 * 1024
REDACTED = "[redacted]"
_URL_PASSWORD = re.compile(r"://[^:/?#@\s]+:([^@/\s]+)@")
_PLAIN = re.compile(r"[A-Za-z]+|[0-9.]+|true|false", re.IGNORECASE)  # `production`, `8080`


def is_secret_name(name: str) -> bool:
    return name.upper().endswith(SECRET_SUFFIXES)


def url_passwords(value: str) -> list[str]:
    """Passwords in `scheme://user:password@host` URLs (DATABASE_URL, say)."""
    return [p for p in _URL_PASSWORD.findall(value) if len(p) >= 4]


def dotenv_values(path: Path) -> dict[str, str]:
    """The variables a `.env` file sets ({} when it is absent, unreadable or too large)."""
    try:
        if not path.is_file():
            return {}
        text = read_capped_text(path, MAX_DOTENV_BYTES, "replace")
    except OSError:
        return {}
    import io

    from dotenv import dotenv_values as parse

    return {k: v for k, v in parse(stream=io.StringIO(text)).items() if v}


def _looks_secret(value: str) -> bool:
    return len(value) >= MIN_SECRET_LEN and not _PLAIN.fullmatch(value) and "/" not in value[:1]


def secret_values(
    environ: Mapping[str, str] | None = None, dotenv_files: Iterable[Path] = ()
) -> list[str]:
    """Values to redact, longest first (so no prefix is left behind): secret-named variables,
    URL passwords, and every secret-looking value the `.env` files set."""
    env = os.environ if environ is None else environ
    values = {v for k, v in env.items() if v and len(v) >= MIN_SECRET_LEN and is_secret_name(k)}
    values.update(p for v in env.values() if "://" in v for p in url_passwords(v))
    for path in dotenv_files:
        for name, value in dotenv_values(path).items():
            if _looks_secret(value) or (is_secret_name(name) and len(value) >= MIN_SECRET_LEN):
                values.add(value)
            values.update(url_passwords(value))
    return sorted(values, key=len, reverse=True)


def redact(text: str, secrets: list[str] | None = None) -> str:
    """`text` with every known secret value and every key shape replaced by [redacted]."""
    for secret in secret_values() if secrets is None else secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    for secret in find_shapes(text):
        text = text.replace(secret, REDACTED)
    return text


def holds_secret(text: str, secrets: list[str] | None = None) -> bool:
    """True when `text` holds a known secret value or a key shape."""
    return redact(text, secrets) != text


def redact_strings(value: Any, secrets: list[str]) -> Any:
    """A copy of a JSON-like value with secret values replaced in every string in it."""
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {k: redact_strings(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_strings(v, secrets) for v in value]
    return value
