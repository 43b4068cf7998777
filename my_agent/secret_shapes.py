"""Known key shapes (AWS keys, GitHub/GitLab/Slack/Stripe/OpenAI tokens, JWTs, URL passwords,
private key blocks) found by detect-secrets' pattern plugins, not by a hand-kept list.

Only the plugins that match a shape are used: the entropy and keyword plugins would flag git
hashes and ordinary code.
"""

from __future__ import annotations

import re
from functools import lru_cache

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


@lru_cache(maxsize=1)
def shape_patterns() -> tuple[re.Pattern[str], ...]:
    """The pattern plugins' regular expressions (detect-secrets is imported on first use)."""
    from detect_secrets.core.plugins.util import get_mapping_from_secret_type_to_class
    from detect_secrets.plugins.base import RegexBasedDetector

    found: list[re.Pattern[str]] = []
    for plugin in get_mapping_from_secret_type_to_class().values():
        if issubclass(plugin, RegexBasedDetector) and plugin.__name__ not in SKIPPED_PLUGINS:
            found += [p for p in plugin().denylist if isinstance(p, re.Pattern)]
    return tuple(found)


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
