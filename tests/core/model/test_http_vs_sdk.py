"""Requests go out through our own HTTP client (httpx2 and our SSE reading) exactly as they
went through the provider SDKs (`UNICUM_HTTP=sdk`, the documented fallback): the same body
bytes, the same headers in the same order, and the same response, usage, retries and error
line for every failure the scripted server stages, on both wires."""

from __future__ import annotations

import random
import socket
from dataclasses import replace

import pytest

from core.model import PROFILES, ModelClient, ResolvedProvider, WireFormat
from my_agent.errors import ModelError
from my_agent.messages import Message, ToolCall, user_text
from tests.core.model.test_wire_body import TOOLS, history
from tests.helpers.fake_llm import (
    Disconnect,
    HttpError,
    NotStream,
    Reply,
    StreamError,
    Truncated,
    llama_cpp_overflow,
)

PROVIDERS = ["openai", "anthropic", "deepseek", "zhipu", "openai-compatible"]
VIAS = ("http", "sdk")


def url_of(llm, provider: str) -> str:
    return llm.url if PROFILES[provider].wire is WireFormat.ANTHROPIC else llm.openai_url


def client_via(via, provider, url, monkeypatch, sleeps=None, **kw) -> ModelClient:
    monkeypatch.setenv("UNICUM_HTTP", via)
    provider_ = ResolvedProvider(PROFILES[provider], "the-model", url, "fake-test-key")
    client = ModelClient(provider_, sleep=(sleeps or []).append, **kw)
    sender = client.sender()  # the way requests go is chosen when it is built
    assert (type(sender).__module__ == "core.model.sdk") == (via == "sdk")
    monkeypatch.delenv("UNICUM_HTTP")
    return client


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_same_bytes_and_headers_go_out(llm, provider, monkeypatch):
    sent, answers = {}, {}
    for via in VIAS:
        client = client_via(via, provider, url_of(llm, provider), monkeypatch)
        llm.reply("ok", reasoning="hm", tool_calls=[("read_file", {"path": "a.py"})])
        answers[via] = client.stream("sys", history(), TOOLS, lambda event: None)
        sent[via] = llm.requests[-1]
    assert sent["http"].raw == sent["sdk"].raw
    assert sent["http"].header_lines == sent["sdk"].header_lines  # names as spelled, in order
    assert sent["http"].path == sent["sdk"].path
    assert without_ids(answers["http"].message) == without_ids(answers["sdk"].message)
    assert answers["http"].usage == answers["sdk"].usage


def without_ids(message: Message) -> list:
    """The blocks, tool calls without their ids (the scripted server numbers them)."""
    return [replace(b, id="") if isinstance(b, ToolCall) else b for b in message.blocks]


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


SCRIPTS = {
    "429 honours retry-after": [HttpError(429, "slow", headers={"retry-after": "2"}), Reply("ok")],
    "5xx back off": [HttpError(503), HttpError(529), HttpError(500), Reply("ok")],
    "retries run out": [HttpError(503)] * 5,
    "bad key echoed": [HttpError(401, "Incorrect API key provided: fake-test-key")],
    "unknown model": [HttpError(404, "model not found")],
    "too long": [HttpError(400, "prompt is too long: 210000 tokens > 200000 maximum")],
    "local overflow": [llama_cpp_overflow()],
    "no jinja": [HttpError(500, body={"error": {"code": 500, "message": "needs --jinja"}})] * 5,
    "quota": [HttpError(429, "You exceeded your current quota", code="insufficient_quota")],
    "huge retry-after": [HttpError(429, headers={"retry-after": "3600"})],
    "overloaded before output": [StreamError(Reply("never shown")), Reply("second try")],
    "overloaded after output": [StreamError(Reply("partial answer", chunk_size=3), 5)],
    "dropped before output": [Disconnect(Reply("lost"), 1), Reply("whole answer")],
    "dropped twice": [Disconnect(Reply("lost"), 1), Disconnect(Reply("lost"), 1)],
    "dropped after output": [Disconnect(Reply("a long answer that breaks", chunk_size=2), 5)],
    "truncated": [Truncated(Reply("cut short"))],
    "not a stream": [NotStream(Reply("plain"))],
    "no usage": [Reply("counted here", omit_usage=True)],
    "cached usage": [Reply("ok", usage={"input": 10, "cache_read": 90, "output": 5})],
}


def outcome(client: ModelClient, retries: list) -> tuple:
    random.seed(31)  # the same jitter for both clients' backoff
    client.on_retry = lambda *a: retries.append(a)
    try:
        r = client.stream("sys", [user_text("q")], [], lambda event: None)
    except ModelError as err:
        return ("error", str(err), err.status, err.retryable, err.too_long)
    return ("answer", without_ids(r.message), r.usage, r.stop_reason, r.model)


@pytest.mark.parametrize("provider", ["anthropic", "openai", "zhipu"])
@pytest.mark.parametrize("script", SCRIPTS)
def test_failures_end_the_same_way(llm, provider, script, monkeypatch):
    seen = {}
    for via in VIAS:
        sleeps: list[float] = []
        retries: list[tuple] = []
        client = client_via(via, provider, url_of(llm, provider), monkeypatch, sleeps)
        before = len(llm.requests)
        llm.add(*SCRIPTS[script])
        result = outcome(client, retries)
        llm.steps.clear()  # steps a run that gave up early left (both leave the same)
        seen[via] = (result, retries, sleeps, len(llm.requests) - before)
    assert seen["http"] == seen["sdk"]
    assert "fake-test-key" not in str(seen["http"][0])


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_closed_port_and_a_read_timeout_are_reported_the_same(llm, provider, monkeypatch):
    url = f"http://127.0.0.1:{closed_port()}" + ("" if provider == "anthropic" else "/v1")
    refused = [outcome(client_via(via, provider, url, monkeypatch), []) for via in VIAS]
    assert refused[0] == refused[1] and "nothing is listening" in refused[0][1]
    late = []
    for via in VIAS:
        client = client_via(via, provider, url_of(llm, provider), monkeypatch, timeout=0.2)
        llm.add(Reply("late", delay=0.5), Reply("late", delay=0.5))
        late.append(outcome(client, []))
    assert late[0] == late[1] and "within 0.2s" in late[0][1]


def test_the_sender_is_built_once_across_threads(llm):
    """The REPL builds it in its warm-up thread while the first request may ask for it."""
    import threading

    client = ModelClient(ResolvedProvider(PROFILES["zhipu"], "m", llm.url, "fake-test-key"))
    barrier = threading.Barrier(8)
    built: list[object] = []

    def build() -> None:
        barrier.wait()
        built.append(client.sender())

    threads = [threading.Thread(target=build) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(sender) for sender in built}) == 1
