"""The model's context window: what the server says, else the `context_window` setting, else
the profile's figure; and whether a base URL is the provider's own service.

Local servers say where they can: llama.cpp `GET /props` (`n_ctx`), Ollama `POST /api/show`
(`num_ctx` among the parameters, else the model's `<arch>.context_length`), vLLM
`GET /v1/models` (`max_model_len`). The probes run one after another in a thread the session
waits for at most `PROBE_DEADLINE` seconds in all, whatever the server does (accepts and never
answers, trickles bytes, a slow DNS): past it the setting or the profile's figure applies, with
one line saying so, and the thread's late answer is dropped.
"""

from __future__ import annotations

import json
import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

from core.model.providers import ResolvedProvider
from my_agent.errors import ConfigError
from my_agent.home import read_user_config

WINDOW_ENV = "UNICUM_CONTEXT_WINDOW"
PRICES_ENV = "UNICUM_PROVIDER_PRICES"
PROBE_DEADLINE = 1.0  # seconds for all probes together: a local server answers in ms
PROBE_TIMEOUT = PROBE_DEADLINE  # per socket operation, so an abandoned probe ends soon too
MIN_WINDOW = 512


def own_host(provider: ResolvedProvider) -> bool:
    """Whether requests go to the provider's own service (its default base URL's host), so
    its published prices and window apply; a base URL elsewhere is another server."""
    default = provider.profile.default_base_url
    if not default or not provider.base_url:
        return False
    return urlsplit(default).netloc.lower() == urlsplit(provider.base_url).netloc.lower()


def local_host(base_url: str | None) -> bool:
    """A loopback or private-network host: a server the user runs (no per-token price)."""
    host = (urlsplit(base_url or "").hostname or "").lower()
    if host in ("localhost", "host.docker.internal") or host.endswith(".local"):
        return True
    return bool(
        re.fullmatch(
            r"127\.\d+\.\d+\.\d+|10\.\d+\.\d+\.\d+|192\.168\.\d+\.\d+|::1|0\.0\.0\.0", host
        )
        or re.fullmatch(r"172\.(1[6-9]|2\d|3[01])\.\d+\.\d+", host)
    )


def price_mode(provider: ResolvedProvider) -> str:
    """How requests are priced: "local" (a server on this machine or network: costs 0),
    "priced" (the provider's own service: its price table applies), else "unknown" (another
    host; a price for the model name would be a guess)."""
    flag = os.environ.get(PRICES_ENV) or read_user_config().get("provider_prices")
    if str(flag).lower() in ("1", "true", "yes"):
        return "priced"  # the user says this base URL bills at the provider's prices (a proxy)
    if local_host(provider.base_url):
        return "local"
    return "priced" if own_host(provider) else "unknown"


def window_setting(cfg: dict[str, Any]) -> int | None:
    """$UNICUM_CONTEXT_WINDOW, else `context_window` in config.json; tokens, or None."""
    raw = os.environ.get(WINDOW_ENV) or cfg.get("context_window")
    if raw is None or raw == "":
        return None
    try:
        value = int(str(raw).replace("_", "").replace(",", ""))
    except ValueError:
        value = 0
    if value < MIN_WINDOW:
        raise ConfigError(
            f"context_window must be a whole number of tokens, at least {MIN_WINDOW} "
            f"(got {raw!r}): fix {WINDOW_ENV} or 'context_window' in config.json"
        )
    return value


def _fetch(url: str, body: dict[str, Any] | None = None) -> Any:
    import urllib.error  # only when a server is asked (slow to import)
    import urllib.request

    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method="POST" if data else "GET")
    request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT) as reply:  # noqa: S310
            return json.loads(reply.read(1_000_000) or b"null")
    except (OSError, ValueError, urllib.error.URLError):
        return None


def _root(base_url: str) -> str:
    url = base_url.rstrip("/")
    return url[: -len("/v1")] if url.endswith("/v1") else url


def _llama_cpp(root: str, model: str) -> int | None:
    props = _fetch(root + "/props")
    if not isinstance(props, dict):
        return None
    settings = props.get("default_generation_settings")
    n_ctx = (settings or {}).get("n_ctx") if isinstance(settings, dict) else None
    return _positive(n_ctx or props.get("n_ctx"))


def _ollama(root: str, model: str) -> int | None:
    shown = _fetch(root + "/api/show", {"model": model})
    if not isinstance(shown, dict):
        return None
    found = re.search(r"(?m)^\s*num_ctx\s+(\d+)", str(shown.get("parameters") or ""))
    if found:
        return _positive(found.group(1))
    info = shown.get("model_info")
    if isinstance(info, dict):
        lengths = [v for k, v in info.items() if str(k).endswith(".context_length")]
        return _positive(lengths[0]) if lengths else None
    return None


def _vllm(root: str, model: str) -> int | None:
    listed = _fetch(root + "/v1/models")
    rows = listed.get("data") if isinstance(listed, dict) else None
    if not isinstance(rows, list):
        return None
    rows = [r for r in rows if isinstance(r, dict)]
    chosen = [r for r in rows if r.get("id") == model] or rows[:1]
    return _positive(chosen[0].get("max_model_len")) if chosen else None


def _positive(value: object) -> int | None:
    try:
        number = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return number if number >= MIN_WINDOW else None


PROBES = (("llama.cpp", _llama_cpp), ("ollama", _ollama), ("vllm", _vllm))


class ProbeLate(Exception):
    """The server did not answer the window probes within `PROBE_DEADLINE` seconds."""


def _ask(root: str, model: str, give_up: float) -> tuple[int, str] | None:
    """The probes in turn, none started after `give_up` (nobody waits for them any more)."""
    order = sorted(PROBES, key=lambda p: p[0] != "ollama") if ":11434" in root else PROBES
    for name, probe in order:
        if time.monotonic() >= give_up:
            return None
        tokens = probe(root, model)
        if tokens:
            return tokens, name
    return None


def server_window(
    base_url: str, model: str, deadline: float = PROBE_DEADLINE
) -> tuple[int, str] | None:
    """(tokens, which server said it) from the first probe that answers, else None; ProbeLate
    when the probes together took longer than `deadline` seconds (they go on in a daemon
    thread, their answer unused)."""
    answer: list[tuple[int, str] | None] = []
    root = _root(base_url)
    give_up = time.monotonic() + deadline
    probing = threading.Thread(
        target=lambda: answer.append(_ask(root, model, give_up)), name="unicum-window", daemon=True
    )
    probing.start()
    probing.join(deadline)
    if not answer:
        raise ProbeLate(root)
    return answer[0]


def discover_window(
    provider: ResolvedProvider, warn: Callable[[str], None] | None = None
) -> ResolvedProvider:
    """`provider` with the window that applies: a server other than the provider's own is
    asked (a smaller `context_window` setting still wins), else the setting, else the
    profile's figure. A server too slow to say is told to `warn` in one line."""
    setting = window_setting(read_user_config())
    said = None
    if provider.base_url and not own_host(provider):
        try:
            said = server_window(provider.base_url, provider.model)
        except ProbeLate as late:
            if warn is not None:
                warn(late_line(str(late), setting or provider.profile.context_window, setting))
    if said and not (setting and setting < said[0]):
        return with_window(provider, *said)
    return with_window(provider, setting, "setting") if setting else provider


def late_line(root: str, tokens: int, setting: int | None) -> str:
    source = "the context_window setting" if setting else "the default"
    return (
        f"the server at {root} did not say its context window within {PROBE_DEADLINE:g} s; "
        f"using {source}, {tokens:,} tokens (set context_window in config.json or "
        f"{WINDOW_ENV} to the server's)"
    )


def with_window(provider: ResolvedProvider, tokens: int, source: str) -> ResolvedProvider:
    profile = provider.profile
    reply_room = max(256, tokens // 4)
    profile = replace(
        profile, context_window=tokens, max_output=min(profile.max_output, reply_room)
    )
    return replace(provider, profile=profile, window_source=source)
