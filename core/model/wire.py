"""The one seam every wire format implements, and the one streaming POST they share.

An adapter is a module (`anthropic_wire`, `openai_wire`) that turns our messages into its
request, knows its endpoint and SSE stream class, and assembles the streamed events back into
one `ModelResponse`. Nothing outside the adapters sees provider JSON."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from core.model.fragments import FragmentCache
from my_agent.messages import Message, ModelResponse, StreamEvent


class Assembler(Protocol):
    """Builds one response from a stream's events; `opened`/`started` tell retries whether
    the connection was up and whether anything was shown."""

    opened: bool
    started: bool

    def feed(self, event: Any) -> None: ...

    def result(self) -> ModelResponse: ...


class WireAdapter(Protocol):
    PATH: str  # the endpoint, relative to the SDK client's base URL

    def StreamAssembler(self, emit: Callable[[StreamEvent], None]) -> Assembler: ...  # noqa: N802

    def make_client(self, base_url: str | None, api_key: str | None, timeout: float) -> Any: ...

    def stream_class(self) -> type: ...

    def build_request(
        self,
        model: str,
        system: str,
        messages: list[Message],
        tools: list[dict[str, Any]],
        max_tokens: int,
        *,
        max_completion_tokens: bool = False,
        with_reasoning: bool = False,
    ) -> dict[str, Any]: ...

    def body_parts(
        self,
        model: str,
        system: str,
        messages: list[Message],
        tools: list[dict[str, Any]],
        cache: FragmentCache,
        *,
        max_completion_tokens: bool = False,
        with_reasoning: bool = False,
    ) -> tuple[list[bytes], str]: ...


@dataclass(frozen=True)
class Sender:
    """An SDK client with its request to the adapter's endpoint, built once per client (its
    headers do not change): URL, headers without the length, extensions; `template` is None
    when this SDK builds requests differently (then its own `post` sends)."""

    client: Any
    template: tuple[Any, ...] | None
    errors: Any  # the SDK's module: its error classes


def sender(adapter: WireAdapter, client: Any) -> Sender:
    sdk = sys.modules[type(client).__module__.partition(".")[0]]
    return Sender(client, _built_template(adapter, client), sdk)


def wire_stream(adapter: WireAdapter, sender: Sender, body: bytes, asm: Assembler) -> ModelResponse:
    """POST the already-encoded request through the SDK's own HTTP client (its connection
    pool, auth and platform headers, timeouts, error classes and SSE parsing) without the SDK's
    per-call request transform, which costs more than the HTTP round trip on long
    conversations; events arrive as plain JSON."""
    # Leaving the `with` (also on KeyboardInterrupt) closes the response and its connection.
    with _open(adapter, sender, body) as events:
        asm.opened = True
        for event in events:
            asm.feed(event)
    return asm.result()


def _open(adapter: WireAdapter, sender: Sender, body: bytes) -> Any:
    """The SDK's stream of the POST's events: the SDK's own request sent with each body
    through its HTTP client, as the SDK's `post` does but without rebuilding it every time
    (options copied, headers merged and validated, the URL parsed: about 0.4 ms a request,
    more than a short conversation's whole body); the SDK's `post` where it cannot be made."""
    client = sender.client
    if sender.template is None:
        return client.post(
            adapter.PATH,
            content=body,
            cast_to=object,
            options={"headers": {"content-type": "application/json"}},
            stream=True,
            stream_cls=adapter.stream_class(),
        )
    import httpx2

    url, headers, extensions = sender.template
    request = httpx2.Request(
        "POST", url, headers=headers, content=body, extensions=dict(extensions)
    )
    try:
        response = client._client.send(request, stream=True)
    except httpx2.TimeoutException as err:  # the SDK's own wrapping of transport errors
        raise sender.errors.APITimeoutError(request=request) from err
    except Exception as err:
        raise sender.errors.APIConnectionError(request=request) from err
    if response.is_error:
        response.read()
        raise client._make_status_error_from_response(response) from None
    return adapter.stream_class()(cast_to=object, response=response, client=client)


def _built_template(adapter: WireAdapter, client: Any) -> tuple[Any, ...] | None:
    try:
        models = importlib.import_module(type(client).__module__.partition(".")[0] + "._models")
        options = models.FinalRequestOptions.construct(
            method="post", url=adapter.PATH, headers={"content-type": "application/json"}
        )
        built = client._build_request(options)
        headers = [(k, v) for k, v in built.headers.raw if k.lower() != b"content-length"]
        template: tuple[Any, ...] | None = (built.url, headers, dict(built.extensions))
        client._client.send  # noqa: B018  (the HTTP client it sends with)
        client._make_status_error_from_response  # noqa: B018
    except (AttributeError, ImportError, TypeError, ValueError):
        template = None
    return template
