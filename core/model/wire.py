"""The one seam every wire format implements, and the one streaming POST they share.

An adapter is a module (`anthropic_wire`, `openai_wire`) that turns our messages into its
request, knows its endpoint, headers and what its stream's events mean, and assembles the
events back into one `ModelResponse`. Nothing outside the adapters sees provider JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager
from typing import Any, Protocol

from core.model.fragments import FragmentCache
from my_agent.messages import Message, ModelResponse, StreamEvent

FALLBACK_ENV = "UNICUM_HTTP"  # "sdk": requests go through the provider's SDK (`sdk.py`)


class Assembler(Protocol):
    """Builds one response from a stream's events; `opened`/`started` tell retries whether
    the connection was up and whether anything was shown."""

    opened: bool
    started: bool

    def feed(self, event: Any) -> None: ...

    def result(self) -> ModelResponse: ...


class WireAdapter(Protocol):
    PATH: str  # the endpoint, relative to the provider's base URL
    SDK: str  # the provider's SDK package: the model list, the fallback, whose headers we send

    def StreamAssembler(self, emit: Callable[[StreamEvent], None]) -> Assembler: ...  # noqa: N802

    def headers(self, api_key: str | None, timeout: float) -> list[tuple[str, str]]: ...

    def read_events(self, chunks: Iterable[bytes], status: int) -> Iterator[Any]: ...

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


class Sender(Protocol):
    """Sends one encoded body and gives the reply's events as plain JSON objects: our own
    HTTP sender (`core/model/http.py`), or the SDK's (`core/model/sdk.py`, the fallback)."""

    def events(self, body: bytes) -> AbstractContextManager[Iterator[Any]]: ...


def wire_stream(sender: Sender, body: bytes, asm: Assembler) -> ModelResponse:
    """POST the already-encoded request and assemble the streamed events into a response."""
    # Leaving the `with` (also on KeyboardInterrupt) closes the response and its connection.
    with sender.events(body) as events:
        asm.opened = True
        for event in events:
            asm.feed(event)
    return asm.result()
