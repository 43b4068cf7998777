"""Known key shapes (AWS keys, GitHub/GitLab/Slack/Stripe/OpenAI tokens, JWTs, URL passwords,
private key blocks) found by detect-secrets' pattern plugins, not by a hand-kept list.

Only the plugins that match a shape are used: the entropy and keyword plugins would flag git
hashes and ordinary code.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from my_agent.capped import CONFIG, read_capped_text
from my_agent.files import atomic_write
from my_agent.home import unicum_home

# IP addresses are not secrets; the IBM/Cloudant/SoftLayer plugins are keyword searches
# (slow on large outputs, and keyword-named assignments are caught by the variable names)
SKIPPED_PLUGINS = (
    "IPPublicDetector",
    "CloudantDetector",
    "IbmCloudIamDetector",
    "IbmCosHmacDetector",
    "SoftlayerDetector",
)
MIN_GROUP = 8  # a capture group this long is the secret itself (the URL password, say)
PEM_BLOCK = re.compile(
    r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----.*?(-----END [A-Z0-9 ]*PRIVATE KEY"
    r"( BLOCK)?-----|\Z)",
    re.DOTALL,
)


CACHE_FILE = ("cache", "secret-shapes.json")  # under the Unicum home


@lru_cache(maxsize=1)
def shape_patterns() -> tuple[re.Pattern[str], ...]:
    """The pattern plugins' regular expressions. Importing detect-secrets costs a few tenths
    of a second (it brings `requests`), so their sources are kept in the Unicum home, for
    this version of detect-secrets and these skipped plugins, and compiled from there."""
    key = _cache_key()
    path = unicum_home().joinpath(*CACHE_FILE)
    sources = _cached(path, key)
    if sources is None:
        sources = _from_detect_secrets()
        try:
            atomic_write(path, json.dumps({"key": key, "patterns": sources}).encode())
        except OSError:
            pass  # a read-only home: compiled from detect-secrets each time
    return tuple(re.compile(pattern, flags) for pattern, flags in sources)


def _cache_key() -> str:
    import importlib.metadata  # deferred: its import is slow, and usually done by then

    try:
        version = importlib.metadata.version("detect-secrets")
    except importlib.metadata.PackageNotFoundError:
        version = "?"
    return f"{version}|{','.join(SKIPPED_PLUGINS)}"


def _cached(path: Path, key: str) -> list[tuple[str, int]] | None:
    try:
        data = json.loads(read_capped_text(path, CONFIG))
        if data["key"] != key or not data["patterns"]:
            return None
        return [(str(pattern), int(flags)) for pattern, flags in data["patterns"]]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _from_detect_secrets() -> list[tuple[str, int]]:
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    found: list[tuple[str, int]] = []
    for plugin in get_mapping_from_secret_type_to_class().values():
        if issubclass(plugin, RegexBasedDetector) and plugin.__name__ not in SKIPPED_PLUGINS:
            found += [(p.pattern, p.flags) for p in plugin().denylist if isinstance(p, re.Pattern)]
    return found


def _secret_of(match: re.Match[str]) -> str:
    groups = [g for g in match.groups() if g and len(g) >= MIN_GROUP]
    return max(groups, key=len) if groups else match.group(0)


def find_shapes(text: str) -> list[str]:
    """Substrings of `text` shaped like keys, tokens or private keys, longest first."""
    found = {m.group(0) for m in PEM_BLOCK.finditer(text)} if "PRIVATE KEY" in text else set()
    for pattern in shape_patterns():
        for match in pattern.finditer(text):
            secret = _secret_of(match)
            if len(secret) >= MIN_GROUP:
                found.add(secret)
    return sorted(found, key=len, reverse=True)
