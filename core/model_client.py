"""Streams one model request through the right wire adapter, with retries and clear errors."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from core.errors import ModelError
from core.messages import Message, ModelResponse, StreamEvent
from my_agent.config import ResolvedProvider
from my_agent.constants import WireFormat

RETRY_STATUS = {408, 409, 429, 500, 502, 503, 504, 529}
NO_RETRY_STATUS = {400, 401, 403, 404, 413, 422}


def _adapter(wire: WireFormat):
    if wire is WireFormat.ANTHROPIC:
        from core.adapters import anthropic_wire as mod
    else:
        from core.adapters import openai_wire as mod
    return mod


def classify(exc: BaseException) -> tuple[int | None, bool, str]:
    """(HTTP status, retryable?, short reason) for an SDK or network exception."""
    status = getattr(exc, "status_code", None)
    name = type(exc).__name__
    if status is None:
        retryable = any(w in name for w in ("Connection", "Timeout", "RemoteProtocol", "ReadError"))
        return None, retryable, name
    return status, status in RETRY_STATUS or status >= 500, f"HTTP {status}"


def retry_after(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None) or {}
    value = headers.get("retry-after") if hasattr(headers, "get") else None
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def error_line(exc: BaseException, provider: ResolvedProvider) -> str:
    status, _, reason = classify(exc)
    name = provider.profile.name
    if status == 401 or status == 403:
        var = provider.profile.key_var or "the API key"
        return f"{name} rejected the API key (HTTP {status}): check {var}"
    if status == 404:
        return f"{name} does not know model '{provider.model}' (HTTP 404): pick another with --model"
    text = str(getattr(exc, "message", "") or exc)
    if status in (400, 413) and ("context" in text.lower() or "too long" in text.lower()):
        return f"the conversation is too long for {provider.model}: run /compact or /new"
    if status is None:
        return f"cannot reach {name} at {provider.base_url}: {reason}"
    first = text.strip().splitlines()[0][:200] if text.strip() else reason
    return f"{name} request failed ({reason}): {first}"


class ModelClient:
    def __init__(self, provider: ResolvedProvider, timeout: float = 600.0,
                 max_retries: int = 4, max_tokens: int | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.provider = provider
        self.model = provider.model
        self.timeout = timeout
        self.max_retries = max_retries
        self.max_tokens = max_tokens or provider.profile.max_output
        self.sleep = sleep
        self._sdk: Any = None
        self.on_request: Callable[[dict[str, Any]], None] | None = None  # --debug logging
        self.on_retry: Callable[[int, float, str], None] | None = None

    @property
    def adapter(self):
        return _adapter(self.provider.profile.wire)

    def sdk(self) -> Any:
        if self._sdk is None:
            self._sdk = self.adapter.make_client(self.provider.base_url, self.provider.api_key,
                                                 self.timeout)
        return self._sdk

    def build_request(self, system: str, messages: list[Message],
                      tools: list[dict[str, Any]]) -> dict[str, Any]:
        profile = self.provider.profile
        if profile.wire is WireFormat.ANTHROPIC:
            return self.adapter.build_request(self.model, system, messages, tools, self.max_tokens)
        return self.adapter.build_request(
            self.model, system, messages, tools, self.max_tokens,
            max_completion_tokens=profile.max_completion_tokens,
            with_reasoning=profile.reasoning_roundtrip)

    def stream(self, system: str, messages: list[Message], tools: list[dict[str, Any]],
               emit: Callable[[StreamEvent], None]) -> ModelResponse:
        request = self.build_request(system, messages, tools)
        if self.on_request:
            self.on_request(request)
        start = time.monotonic()
        first: list[float] = []

        def timed_emit(event: StreamEvent) -> None:
            if not first:
                first.append(time.monotonic() - start)
            emit(event)

        response = self._with_retries(request, timed_emit)
        response.ttft = first[0] if first else None
        response.duration = time.monotonic() - start
        return response

    def _with_retries(self, request: dict[str, Any],
                      emit: Callable[[StreamEvent], None]) -> ModelResponse:
        attempt = 0
        while True:
            asm = self.adapter.StreamAssembler(emit)
            try:
                return self.adapter.stream(self.sdk(), request, emit, asm)
            except KeyboardInterrupt:
                raise
            except Exception as exc:
                status, retryable, reason = classify(exc)
                if asm.started and status is None:
                    raise ModelError(f"the stream broke after output began ({reason}); "
                                     "ask again to continue", status) from exc
                if not retryable or attempt >= self.max_retries:
                    raise ModelError(error_line(exc, self.provider), status) from exc
                attempt += 1
                wait = retry_after(exc)
                if wait is None:
                    wait = min(30.0, 0.5 * 2 ** (attempt - 1)) * (0.5 + random.random() / 2)
                if self.on_retry:
                    self.on_retry(attempt, wait, reason)
                self.sleep(wait)
