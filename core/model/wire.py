"""The one seam every wire format implements, and the one streaming POST they share.

An adapter is a module (`anthropic_wire`, `openai_wire`) that turns our messages into its
request, knows its endpoint and SSE stream class, and assembles the streamed events back into
one `ModelResponse`. Nothing outside the adapters sees provider JSON."""

from __future__ import annotations

from collections.abc import Callable
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


def wire_stream(adapter: WireAdapter, client: Any, body: bytes, asm: Assembler) -> ModelResponse:
    """POST the already-encoded request through the SDK's own transport (its auth headers,
    timeouts, errors and SSE parsing) without the SDK's per-call request transform, which
    costs more than the HTTP round trip on long conversations; events arrive as plain JSON."""
    # Leaving the `with` (also on KeyboardInterrupt) closes the response and its connection.
    with client.post(
        adapter.PATH,
        content=body,
        cast_to=object,
        options={"headers": {"content-type": "application/json"}},
        stream=True,
        stream_cls=adapter.stream_class(),
    ) as events:
        asm.opened = True
        for event in events:
            asm.feed(event)
    return asm.result()
