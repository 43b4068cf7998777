"""Our SSE reading: the specification's line endings however the network cuts the body,
comments and unknown fields skipped, multi-line data joined; each wire's meaning of events."""

from __future__ import annotations

import json

import pytest

from core.model.sse import StreamFailed, anthropic_events, events, lines, openai_events

BODY = (
    b": a comment\r\n"
    b"event: message_start\r\n"
    b'data: {"type": "message_start",\r\n'
    b'data:  "n": 1}\r\n'
    b"\r\n"
    b"event: ping\n"
    b"data: {}\n"
    b"\n"
    b"id: 7\rretry: 10\r"
    b'data: {"type": "x"}\r'
    b"\r"
    b'data: {"last": true}'
)
EXPECTED = [
    ("message_start", '{"type": "message_start",\n "n": 1}'),
    ("ping", "{}"),
    (None, '{"type": "x"}'),
    (None, '{"last": true}'),
]


def cut(body: bytes, size: int) -> list[bytes]:
    return [body[i : i + size] for i in range(0, len(body), size)]


@pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
def test_events_are_the_same_however_the_body_is_cut(size):
    assert list(events(cut(BODY, size))) == EXPECTED


def test_a_crlf_split_between_chunks_is_one_line_end():
    assert list(lines([b"a\r", b"\nb\r", b"\r\nc"])) == [b"a", b"b", b"", b"c"]


def sse(name: str | None, data: object) -> bytes:
    head = f"event: {name}\n" if name else ""
    return f"{head}data: {json.dumps(data)}\n\n".encode()


def test_anthropic_keeps_named_events_skips_pings_and_raises_errors():
    start = {"type": "message_start", "message": {"model": "m"}}
    body = sse("message_start", start) + sse("ping", {"type": "ping"}) + sse(None, {"x": 1})
    assert list(anthropic_events([body], 200)) == [start]
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}
    with pytest.raises(StreamFailed) as err:
        list(anthropic_events([body + sse("error", error)], 200))
    assert err.value.body == error and err.value.status_code == 200


def test_openai_stops_at_done_reading_the_rest_and_raises_errors():
    chunk = {"choices": [{"delta": {"content": "hi"}}]}
    rest: list[bytes] = []

    def body():
        yield sse(None, chunk)
        yield b"data: [DONE]\n\n"
        rest.append(b"read")
        yield b": the server's last bytes\n\n"

    assert list(openai_events(body(), 200)) == [chunk]
    assert rest == [b"read"]  # the body was read to its end: the connection can be reused
    failing = sse(None, {"error": {"message": "slow down", "code": 429}})
    with pytest.raises(StreamFailed) as err:
        list(openai_events([failing], 200))
    assert (err.value.message, err.value.body) == (
        "slow down",
        {"message": "slow down", "code": 429},
    )
