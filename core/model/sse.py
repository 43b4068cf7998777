"""Server-sent events read from a response body, and each wire's rules for them.

The reader follows the SSE specification's parsing (`event:`, `data:` lines, a blank line
ends an event; CR, LF or CRLF end a line, split across chunks or not). What an event means
(a keep-alive, an error, the end) is each wire's: `anthropic_events` and `openai_events`
give the events' JSON objects as the providers' own SDKs do, and raise `StreamFailed` for an
error event, with the same message and body the SDKs' errors carry."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

_LINE_END = re.compile(rb"\r\n|\r|\n")


class StreamFailed(Exception):
    """An error event inside a stream: the server's `message` and error `body` (its `error`
    object, or the whole event), as `core.model.retry.classify` reads any API error."""

    def __init__(self, message: str, body: Any, status_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.body = body
        self.status_code = status_code


def lines(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """The body's lines without their ends, however the chunks cut them."""
    pending = b""
    for chunk in chunks:
        pending += chunk
        held = pending.endswith(b"\r")  # a CR that may be the first half of a CRLF
        *complete, pending = _LINE_END.split(pending[:-1] if held else pending)
        if held:
            pending += b"\r"
        yield from complete
    if pending:
        yield pending.rstrip(b"\r")


def events(chunks: Iterable[bytes]) -> Iterator[tuple[str | None, str]]:
    """(event name or None, data) for each event, in order; comments and unknown fields
    are skipped, as the specification says."""
    name: str | None = None
    data: list[str] = []
    for raw in lines(chunks):
        if not raw:
            if name is not None or data:
                yield name, "\n".join(data)
            name, data = None, []
            continue
        if raw.startswith(b":"):
            continue
        field, _, value = raw.decode("utf-8").partition(":")
        value = value[1:] if value.startswith(" ") else value
        if field == "data":
            data.append(value)
        elif field == "event":
            name = value
    if name is not None or data:
        yield name, "\n".join(data)


def anthropic_events(chunks: Iterable[bytes], status: int) -> Iterator[dict[str, Any]]:
    """Anthropic Messages: named events only, `ping` skipped, `error` raised."""
    for name, data in events(chunks):
        if name is None or name == "ping":
            continue
        if name == "error":
            try:
                body: Any = json.loads(data)
                message = f"{body}"
            except ValueError:
                body, message = data, data or f"Error code: {status}"
            raise StreamFailed(message, body, status)
        if data:
            yield json.loads(data)


def openai_events(chunks: Iterable[bytes], status: int) -> Iterator[dict[str, Any]]:
    """OpenAI Chat Completions: every event's JSON until `[DONE]`, whose rest is read and
    dropped (so the connection is left clean for the next request); an object carrying
    `error` is raised."""
    stream = events(chunks)
    for _, data in stream:
        if data.startswith("[DONE]"):
            for _ in stream:
                pass
            return
        event = json.loads(data)
        error = event.get("error") if isinstance(event, dict) else None
        if error:
            message = error.get("message") if isinstance(error, dict) else None
            if not message or not isinstance(message, str):
                message = "An error occurred during streaming"
            raise StreamFailed(message, error)
        yield event
