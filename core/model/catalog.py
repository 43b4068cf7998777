"""The provider's model list (`GET /v1/models`), for `/model` to check a name and offer a
choice. A provider without one (or unreachable) gives None: the name is taken as typed."""

from __future__ import annotations

import difflib
from itertools import islice

from core.model.client import ModelClient

LIST_TIMEOUT = 10.0  # seconds: /model must not hang on a slow server
MAX_MODELS = 500


def available_models(client: ModelClient) -> list[str] | None:
    """The model ids the provider lists, sorted; None when it lists none or cannot say."""
    try:
        sdk = client.sdk().with_options(timeout=LIST_TIMEOUT, max_retries=0)
        ids = [getattr(m, "id", "") for m in islice(sdk.models.list(), MAX_MODELS)]
    except Exception:  # no such endpoint, no network, an SDK without it: cannot check
        return None
    ids = sorted({i for i in ids if i})
    return ids or None


def closest_model(name: str, models: list[str]) -> str | None:
    """The listed model nearest to `name` (a typo, a missing date or prefix), if any is near."""
    lowered = {m.lower(): m for m in models}
    if name.lower() in lowered:
        return lowered[name.lower()]
    contains = [m for m in models if name.lower() in m.lower()]
    if contains:
        return min(contains, key=len)
    near = difflib.get_close_matches(name.lower(), list(lowered), n=1, cutoff=0.5)
    return lowered[near[0]] if near else None
