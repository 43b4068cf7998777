"""Streams one model request through the right wire adapter, with retries and clear errors."""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from core.model.fragments import FragmentCache
from core.model.providers import ResolvedProvider, WireFormat
from core.model.retry import (
    MAX_HONOURED_WAIT,
    Failure,
    Target,
    backoff,
    broken_stream_line,
    classify,
    error_line,
    retry_after,
)
from core.model.wire import FALLBACK_ENV, Sender, WireAdapter, wire_stream
from my_agent.errors import ModelError
from my_agent.messages import Message, ModelResponse, ReasoningBlock, StreamEvent, ToolCall, Usage
from my_agent.tokens import estimate_tokens

REPLY_MARGIN = 64  # tokens kept free besides the estimated prompt
MIN_REPLY = 256  # never ask for less: a prompt that leaves no room fails as "too long"

# (attempt, seconds left before it, reason): called when a retry is scheduled, then ~each second
RetryHook = Callable[[int, float, str], None]


def wire_adapter(wire: WireFormat) -> WireAdapter:
    if wire is WireFormat.ANTHROPIC:
        from core.model import anthropic_wire as mod
    else:
        from core.model import openai_wire as mod
    return mod  # type: ignore[return-value]  (a module implementing the protocol)


def estimate_usage(body: bytes, message: Message) -> Usage:
    """Local count for a provider that reported no usage (the body as sent); an estimate."""
    sent = body.decode("utf-8", errors="replace")
    produced = "".join(b.text for b in message.blocks if isinstance(b, ReasoningBlock))
    produced += message.text + "".join(
        c.raw_arguments for c in message.blocks if isinstance(c, ToolCall)
    )
    return Usage(
        input=estimate_tokens(sent),
        output=estimate_tokens(produced) if produced else 0,
        estimated=True,
    )


class ModelClient:
    def __init__(
        self,
        provider: ResolvedProvider,
        timeout: float | None = None,
        max_retries: int = 4,
        max_tokens: int | None = None,
        sleep: Callable[[float], None] = time.sleep,
        on_request: Callable[[dict[str, Any]], None] | None = None,  # --debug logging
    ) -> None:
        self.provider = provider
        self.model = provider.model
        self.timeout = timeout or provider.timeout
        self.max_retries = max_retries
        self.max_tokens = max_tokens or provider.profile.max_output
        self.sleep = sleep
        self._sdk: Any = None  # the provider's SDK client: only for its model list
        self._sender: Sender | None = None  # what sends each request (`http.py`)
        self._lock = threading.Lock()  # the REPL's warm-up thread may race the first request
        self.on_request = on_request
        self.on_retry: RetryHook | None = None
        self._pieces = FragmentCache()  # the history's serialized messages, by content

    @property
    def adapter(self):
        return wire_adapter(self.provider.profile.wire)

    def set_model(self, name: str) -> None:
        """Use another model of the same provider from the next request on (`/model NAME`)."""
        name = name.strip()
        if not name:
            raise ValueError("model name is empty")
        self.model = name

    def target(self) -> Target:
        p = self.provider
        return Target(
            p.profile.name,
            self.model,
            p.profile.key_var,
            p.base_url,
            p.profile.base_url_var,
            self.timeout,
        )

    def sdk(self) -> Any:
        """The provider's SDK client (imports the SDK), built once even when two threads ask
        at the same time; requests never need it (`sender`)."""
        if self._sdk is None:
            with self._lock:
                if self._sdk is None:
                    from core.model.sdk import make_client

                    p = self.provider
                    self._sdk = make_client(self.adapter.SDK, p.base_url, p.api_key, self.timeout)
        return self._sdk

    def sender(self) -> Sender:
        """What sends the requests, built once (the REPL builds it in the background): our
        HTTP client, or the SDK's with `UNICUM_HTTP=sdk`."""
        if self._sender is None:
            with self._lock:
                if self._sender is None:
                    self._sender = self._new_sender()
        return self._sender

    def _new_sender(self) -> Sender:
        adapter, p = self.adapter, self.provider
        if os.environ.get(FALLBACK_ENV, "").strip().lower() == "sdk":
            from core.model.sdk import SdkSender, make_client

            client = make_client(adapter.SDK, p.base_url, p.api_key, self.timeout)
            return SdkSender(adapter.PATH, client)
        from core.model.http import HttpSender

        base = p.base_url or p.profile.default_base_url or ""
        url = (base if base.endswith("/") else base + "/") + adapter.PATH.lstrip("/")
        headers = adapter.headers(p.api_key, self.timeout)
        return HttpSender(url, headers, adapter.read_events, self.timeout)

    def build_request(
        self, system: str, messages: list[Message], tools: list[dict[str, Any]]
    ) -> dict[str, Any]:
        profile = self.provider.profile
        return self.adapter.build_request(
            self.model,
            system,
            messages,
            tools,
            self.max_tokens,
            max_completion_tokens=profile.max_completion_tokens,
            with_reasoning=profile.reasoning_roundtrip,
        )

    def stream(
        self,
        system: str,
        messages: list[Message],
        tools: list[dict[str, Any]],
        emit: Callable[[StreamEvent], None],
        on_retry: RetryHook | None = None,
    ) -> ModelResponse:
        """One streamed request; Ctrl-C closes the connection and propagates KeyboardInterrupt."""
        body = self.body(system, messages, tools)
        if self.on_request:
            self.on_request(json.loads(body))  # exactly what is sent
        client_seconds = self._sender_wait()
        start = time.monotonic()
        first: list[float] = []

        def timed_emit(event: StreamEvent) -> None:
            if not first:
                first.append(time.monotonic() - start)
            emit(event)

        response = self._with_retries(body, timed_emit, on_retry or self.on_retry)
        if response.usage.estimated:
            response.usage = estimate_usage(body, response.message)
        response.ttft = first[0] if first else None
        response.duration = time.monotonic() - start
        response.client_seconds = client_seconds
        return response

    def _sender_wait(self) -> float:
        """Seconds this request waited for the HTTP client (its import and set-up, or the
        REPL's warm-up thread finishing them): 0 once it is built. A failure is left for the
        request's own attempt to report."""
        if self._sender is not None:
            return 0.0
        started = time.monotonic()
        try:
            self.sender()
        except Exception:
            return 0.0
        return time.monotonic() - started

    def body(self, system: str, messages: list[Message], tools: list[dict[str, Any]]) -> bytes:
        """The request body exactly as `stream` sends it (`build_request`'s, streamed),
        serialized from pieces cached by content, with the reply's token limit capped to what
        the window leaves after the prompt (about 3 bytes a token, so rather less than more)."""
        profile = self.provider.profile
        parts, key = self.adapter.body_parts(
            self.model,
            system,
            messages,
            tools,
            self._pieces,
            max_completion_tokens=profile.max_completion_tokens,
            with_reasoning=profile.reasoning_roundtrip,
        )
        room = profile.context_window - sum(map(len, parts)) // 3 - REPLY_MARGIN
        fitted = max(MIN_REPLY, min(self.max_tokens, room))
        parts.append(f',"{key}":{fitted}}}'.encode())
        return b"".join(parts)

    def _with_retries(
        self,
        body: bytes,
        emit: Callable[[StreamEvent], None],
        on_retry: RetryHook | None,
    ) -> ModelResponse:
        attempt = 0
        restarted = False  # a stream that died before showing anything is restarted once
        while True:
            asm = self.adapter.StreamAssembler(emit)
            try:
                return _finished(wire_stream(self.sender(), body, asm), asm, self)
            except ModelError:
                raise
            except Exception as exc:
                failure = classify(exc)
                if isinstance(exc, StreamCut):
                    failure = replace(failure, reason=STREAM_CUT)
                if asm.started:
                    raise ModelError(
                        broken_stream_line(failure, self.target()), failure.status
                    ) from exc
                dropped = asm.opened and failure.kind in ("connection", "timeout")
                wait = self._next_wait(exc, failure, attempt, dropped and restarted)
                if wait is None:
                    raise ModelError(
                        self._masked(error_line(failure, self.target(), attempt)),
                        failure.status,
                        failure.retryable,
                        too_long=failure.too_long,
                    ) from exc
                restarted = restarted or dropped
                attempt += 1
                self._countdown(attempt, wait, failure.reason, on_retry)

    def _masked(self, line: str) -> str:
        """`line` without the API key, should the server have echoed it back."""
        key = self.provider.api_key
        return line.replace(key, "…") if key and len(key) >= 6 else line

    def _countdown(
        self, attempt: int, wait: float, reason: str, on_retry: RetryHook | None
    ) -> None:
        """Sleep `wait` seconds, telling the hook the seconds left about once a second."""
        left = wait
        while True:
            if on_retry:
                on_retry(attempt, left, reason)
            step = min(1.0, left)
            self.sleep(step)
            left -= step
            if left <= 1e-9:
                return

    def _next_wait(
        self, exc: BaseException, failure: Failure, attempt: int, second_drop: bool
    ) -> float | None:
        """Seconds to wait before the next attempt, or None to give up."""
        if not failure.retryable or second_drop or attempt >= self.max_retries:
            return None
        if failure.kind == "refused" and attempt >= 1:
            return None  # nothing listening: one quick second try (a server just starting)
        asked = retry_after(exc)
        if asked is not None and asked > MAX_HONOURED_WAIT:
            return None
        return asked if asked is not None else backoff(attempt + 1)


STREAM_CUT = "the stream ended without its final event"


class StreamCut(ConnectionError):
    """A stream that ended without its final event (message_stop / a finish_reason): treated
    as a dropped connection, so it is retried once when nothing was shown, and its text and
    tool calls are never used."""


def _finished(response: ModelResponse, asm: Any, client: ModelClient) -> ModelResponse:
    """`response` when its stream ended properly; StreamCut when it broke off, or a ModelError
    when the server answered without any stream at all (an HTTP 200 that is not SSE)."""
    if response.stop_reason:
        return response
    if not (asm.started or asm.model or response.usage.output or response.usage.input):
        t = client.target()
        raise ModelError(
            f"{t.provider} answered without a stream (an HTTP 200 with no events) at "
            f"{t.base_url}: check {t.base_url_var} points at the provider's API",
            None,
            False,
        )
    raise StreamCut(STREAM_CUT)
