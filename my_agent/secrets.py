"""Which environment variables hold secrets, and redaction of their values from any text.

One table serves the shell (variables stripped from a command's environment), tool results
and the debug log (values replaced before the model or a file sees them).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

# a variable whose upper-cased name ends with one of these holds a secret
SECRET_SUFFIXES = (
    "_API_KEY",
    "_APIKEY",
    "_TOKEN",
    "_SECRET",
    "_SECRET_KEY",
    "_ACCESS_KEY",
    "_PASSWORD",
    "_PASSWD",
)
MIN_SECRET_LEN = 8  # shorter values are too likely to occur in ordinary text
REDACTED = "[redacted]"


def is_secret_name(name: str) -> bool:
    return name.upper().endswith(SECRET_SUFFIXES)


def secret_values(environ: Mapping[str, str] | None = None) -> list[str]:
    """Values of variables that hold secrets, longest first (so no prefix is left behind)."""
    env = os.environ if environ is None else environ
    values = {v for k, v in env.items() if v and len(v) >= MIN_SECRET_LEN and is_secret_name(k)}
    return sorted(values, key=len, reverse=True)


def redact(text: str, secrets: list[str] | None = None) -> str:
    """`text` with every known secret value replaced by [redacted]."""
    for secret in secret_values() if secrets is None else secrets:
        if secret in text:
            text = text.replace(secret, REDACTED)
    return text


def redact_strings(value: Any, secrets: list[str]) -> Any:
    """A copy of a JSON-like value with secret values replaced in every string in it."""
    if isinstance(value, str):
        return redact(value, secrets)
    if isinstance(value, dict):
        return {k: redact_strings(v, secrets) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [redact_strings(v, secrets) for v in value]
    return value
