"""The catalogs: English source strings in the code, one gettext catalog for each other language
(`locale/<lang>/LC_MESSAGES/unicum.po`, compiled to `.mo` with Babel; see ARCHITECTURE.md)."""

from __future__ import annotations

import gettext
import os
from functools import cache
from pathlib import Path

DOMAIN = "unicum"
LOCALE_DIR = Path(__file__).with_name("locale")


def N_(message: str) -> str:
    """Marks `message` for extraction where it is translated later (a table, a chosen key)."""
    return message


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """The catalog for `lang`; English (and a language without a catalog) reads the source."""
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def languages() -> tuple[str, ...]:
    """English (the source) and every language with a compiled catalog under locale/."""
    mo = f"LC_MESSAGES/{DOMAIN}.mo"  # a listing, not a glob: `cli.py --help` asks for this
    found = sorted(d.name for d in os.scandir(LOCALE_DIR) if os.path.isfile(f"{d.path}/{mo}"))
    return ("en", *found)
