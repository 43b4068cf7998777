"""Which model-request failures are retried, how long to wait, and the one line the user sees.

Failures arrive as SDK or transport exceptions; `classify` turns them into a `Failure` record by
their HTTP status, the provider's error type and the exception classes (by name, so neither SDK
is imported here). Policy is in the tables below, not in branches scattered through the client.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

RETRY_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
# Provider error types (Anthropic `error.type`, OpenAI `error.code`/`type`) → the status they mean.
# Mid-stream errors arrive inside an HTTP 200 response, so the type is all there is.
ERROR_TYPES = {
    "overloaded_error": 529,
    "rate_limit_error": 429,
    "rate_limit_exceeded": 429,
    "api_error": 500,
    "server_error": 500,
    "internal_server_error": 500,
    "authentication_error": 401,
    "invalid_api_key": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "model_not_found": 404,
    "request_too_large": 413,
    "context_length_exceeded": 400,
    "insufficient_quota": 402,
    "billing_error": 402,
}
CONNECTION_CLASSES = frozenset(
    {
        "APIConnectionError",
        "TransportError",
        "ConnectionError",
        "TimeoutException",
        "TimeoutError",
        "IncompleteRead",
    }
)
_MODEL_MISSING = re.compile(
    r"model.{0,40}(not (be )?found|not exist|does not exist|unknown|"
    r"invalid|not supported)|unknown model|模型不存在",
    re.I,
)
_TOO_LONG = re.compile(
    r"context.{0,20}(length|window|limit|too)|too long|too many tokens|"
    r"maximum.{0,20}(length|tokens)|prompt is too|超过.{0,10}(长度|上下文)|"
    r"上下文.{0,6}(长度|超)",
    re.I,
)
# Local servers' overflow messages, recognised whatever the status: llama.cpp ("the request
# exceeds the available context size"), vLLM ("maximum context length is 2048 tokens"), Ollama
# ("input length exceeds the context length", "prompt too long; exceeded max context length"),
# LM Studio ("the model is loaded with context length of only 4096 tokens", "context overflow").
_OVERFLOW = re.compile(
    r"exceeds? (the )?(available |maximum )?context|exceed_context_size|"
    r"maximum context length is|exceeded max context length|input length exceeds|"
    r"loaded with context length|context (window |length )?overflow|"
    r"context (size|length) (has been )?exceeded",
    re.I,
)
# A connection no server accepted: nothing listening, or a host name that does not resolve.
_REFUSED = re.compile(r"connection refused|errno 111|errno 61|actively refused", re.I)
_NO_HOST = re.compile(
    r"name or service not known|nodename nor servname|getaddrinfo failed|"
    r"temporary failure in name resolution|no address associated|name resolution",
    re.I,
)
_NO_CREDIT = re.compile(
    r"insufficient.{0,10}(quota|balance|credit)|exceeded your current quota|"
    r"余额不足|欠费|无可用资源包",
    re.I,
)
_SECRET = re.compile(r"(sk-|key-)[A-Za-z0-9_\-*.]{6,}")
MAX_HONOURED_WAIT = 120.0  # a longer `retry-after` is reported, not slept through


@dataclass(frozen=True)
class Failure:
    status: int | None  # HTTP status, or the status a provider error type stands for
    kind: str  # "http" | "timeout" | "connection" | "stream-error"
    retryable: bool
    reason: str  # short, for the countdown line: "HTTP 429", "overloaded", "connection dropped"
    message: str  # the provider's own message, first line, secrets masked
    code: str = ""  # the provider's error code or type, e.g. "context_length_exceeded"
    http: int | None = None  # the HTTP status as sent (`status` may be the one a code means)

    @property
    def too_long(self) -> bool:
        """The request did not fit the model's context window (any provider's wording)."""
        text = self.message
        if self.status == 413 or self.code in ("context_length_exceeded", "exceed_context_size"):
            return True
        return bool(_OVERFLOW.search(text)) or (self.status == 400 and bool(_TOO_LONG.search(text)))


def _error_body(exc: BaseException) -> dict[str, Any]:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        return inner if isinstance(inner, dict) else {"message": str(inner)}
    return {}


def _class_names(exc: BaseException) -> set[str]:
    return {cls.__name__ for cls in type(exc).__mro__}


def _first_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return _SECRET.sub(lambda m: m.group(1) + "…", line)[:200]


def classify(exc: BaseException) -> Failure:
    """What went wrong with one attempt, and whether another attempt may help."""
    body = _error_body(exc)
    message = _first_line(str(body.get("message") or getattr(exc, "message", "") or exc))
    kind_name = str(body.get("type") or "")
    code = body.get("code")
    mapped = ERROR_TYPES.get(str(code)) or ERROR_TYPES.get(kind_name)
    status = getattr(exc, "status_code", None)
    if isinstance(code, int) and code >= 400:
        mapped = mapped or code
    if status is None or status < 400:  # no HTTP error status: a transport or mid-stream error
        if mapped:
            reason = kind_name.replace("_error", "") or f"error {mapped}"
            return Failure(
                mapped,
                "stream-error",
                _retryable(mapped, body, message),
                reason,
                message,
                str(code or kind_name),
            )
        names = _class_names(exc)
        if any("Timeout" in n for n in names):
            return Failure(None, "timeout", True, "timed out", message)
        chain = _chain_text(exc)
        if _NO_HOST.search(chain):
            return Failure(None, "no-host", False, "host not found", message)
        if _REFUSED.search(chain):
            return Failure(None, "refused", True, "connection refused", message)
        if names & CONNECTION_CLASSES or any("Protocol" in n or "Read" in n for n in names):
            return Failure(None, "connection", True, "connection dropped", message)
        return Failure(None, "other", False, type(exc).__name__, message)
    effective = mapped if mapped in (402, 404, 413) else status
    return Failure(
        effective,
        "http",
        _retryable(status, body, message),
        f"HTTP {status}",
        message,
        str(code or kind_name),
        status,
    )


def _chain_text(exc: BaseException) -> str:
    """The messages of `exc` and every exception it was raised from (the SDK wraps httpx,
    which wraps the socket's own error: that is where "Connection refused" is said)."""
    parts, seen = [], 0
    current: BaseException | None = exc
    while current is not None and seen < 8:
        parts.append(f"{type(current).__name__}: {current}")
        current = current.__cause__ or current.__context__
        seen += 1
    return " | ".join(parts)


def _retryable(status: int, body: dict[str, Any], message: str) -> bool:
    no_credit = 402 in (
        ERROR_TYPES.get(str(body.get("code"))),
        ERROR_TYPES.get(str(body.get("type"))),
    )
    if no_credit or _NO_CREDIT.search(message):
        return False  # quota and balance errors come as 429s, but waiting will not refill them
    if _OVERFLOW.search(message):
        return False  # some local servers answer an overflow with a 5xx: retrying cannot help
    return status in RETRY_STATUS or status >= 500


def retry_after(exc: BaseException, now: Callable[[], float] = time.time) -> float | None:
    """Seconds the server asked us to wait (`retry-after-ms`, `retry-after` seconds or date)."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None or not hasattr(headers, "get"):
        return None
    millis = headers.get("retry-after-ms")
    try:
        if millis is not None:
            return max(0.0, float(millis) / 1000)
    except ValueError:
        pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        import email.utils  # only for HTTP-date values (slow to import)

        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now())


def backoff(
    attempt: int, base: float = 0.5, cap: float = 30.0, rand: Callable[[], float] = random.random
) -> float:
    """Exponential backoff with jitter: between half and all of base·2^(attempt-1), capped."""
    return min(cap, base * 2 ** (attempt - 1)) * (0.5 + rand() / 2)


@dataclass(frozen=True)
class Target:
    """What the error lines need to name: never the key itself."""

    provider: str
    model: str
    key_var: str | None
    base_url: str | None
    base_url_var: str
    timeout: float


def said(failure: Failure, limit: int = 160) -> str:
    """The server's own words, shortened, as the end of an error line (empty when it said
    nothing more than the status)."""
    text = failure.message.strip()
    if not text or text == str(failure.http or failure.status) or text.startswith("Error code:"):
        return ""
    return f" [server: {text[:limit] + ('…' if len(text) > limit else '')}]"


def error_line(failure: Failure, target: Target, retries: int = 0) -> str:
    """One actionable line for a failure that ends the request; HTTP errors end with what the
    server itself said."""
    return _line(failure, target, retries) + (
        said(failure) if failure.kind in ("http", "stream-error") else ""
    )


def _line(failure: Failure, target: Target, retries: int) -> str:
    t, status, text = target, failure.status, failure.message
    after = f" after {retries} retries" if retries else ""
    http = f"HTTP {failure.http or status}"
    if status in (401, 403):
        var = t.key_var or "the server's API key"
        verb = "rejected the API key" if status == 401 else "refused access"
        return f"{t.provider} {verb} (HTTP {status}): check {var}"
    if failure.too_long:
        return (
            f"the conversation is too long for {t.model} on {t.provider}: "
            "run /compact (or /new to start over)"
        )
    if status == 404 or (status in (400, 422) and _MODEL_MISSING.search(text)):
        return (
            f"{t.provider} does not know model '{t.model}' (HTTP {status}): "
            "pick another with --model or /model"
        )
    if status == 402 or (status == 429 and _NO_CREDIT.search(text) and not failure.retryable):
        code = f" {failure.code}" if failure.code and not failure.code.isdigit() else ""
        kind = "quota" if "quota" in (text + failure.code).lower() else "credit"
        return (
            f"{t.provider} says the account has no credit or quota left ({http}{code}, "
            f"{kind}): top it up, or switch with --provider"
        )
    if status == 429:
        return (
            f"{t.provider} is rate-limiting requests{after} (HTTP 429): wait a minute and ask again"
        )
    if failure.kind == "timeout":
        return (
            f"{t.provider} did not answer within {t.timeout:g}s{after}: "
            "try again, or raise UNICUM_TIMEOUT"
        )
    if failure.kind == "refused":
        return (
            f"nothing is listening at {t.base_url}: is the server running? "
            f"(or fix {t.base_url_var})"
        )
    if failure.kind == "no-host":
        return f"cannot find the host of {t.base_url}: check {t.base_url_var} and the network"
    if failure.kind == "connection":
        return (
            f"cannot reach {t.provider} at {t.base_url}{after} ({failure.reason}): "
            f"check the network and {t.base_url_var}"
        )
    if status is not None and status >= 500:
        return (
            f"{t.provider} is overloaded or failing{after} ({failure.reason}): "
            "try again shortly, or switch with --provider"
        )
    detail = f": {text}" if text else ""
    if status is None:  # e.g. a reply the SDK could not parse
        return f"the request to {t.provider} failed ({failure.reason}){detail}"
    return f"{t.provider} rejected the request ({failure.reason})"


def broken_stream_line(failure: Failure, target: Target) -> str:
    return (
        f"the reply from {target.provider} broke off midway ({failure.reason}); "
        "the partial reply was discarded - ask again to continue"
    )
