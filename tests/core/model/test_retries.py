"""Retries, backoff, broken streams and the one-line errors, against the scripted server.

The client's `sleep` is injected, so waits are recorded instead of slept."""

from __future__ import annotations

import socket

import pytest

from core.model import ModelClient, ResolvedProvider
from core.model.providers import PROFILES
from core.model.retry import backoff, classify, retry_after
from my_agent.errors import ModelError
from my_agent.messages import TextDelta, user_text
from tests.helpers.fake_llm import Disconnect, HttpError, Reply, StreamError

WIRES = ["anthropic", "openai"]


class Recorder:
    def __init__(self) -> None:
        self.sleeps: list[float] = []
        self.retries: list[tuple[int, float, str]] = []
        self.events: list[object] = []


def make(llm, provider: str, rec: Recorder, url: str | None = None, **kw) -> ModelClient:
    profile = PROFILES[provider]
    base = url or (llm.url if provider in ("anthropic", "zhipu") else llm.openai_url)
    client = ModelClient(
        ResolvedProvider(profile, "the-model", base, "fake-secret-value"),
        sleep=rec.sleeps.append,
        **kw,
    )
    client.on_retry = lambda *a: rec.retries.append(a)
    return client


def ask(client: ModelClient, rec: Recorder):
    return client.stream("sys", [user_text("q")], [], rec.events.append)


@pytest.mark.parametrize("provider", WIRES)
def test_429_then_200_honours_retry_after_with_a_countdown(provider, llm):
    llm.add(HttpError(429, "slow down", headers={"retry-after": "3"}), Reply("fine"))
    rec = Recorder()
    response = ask(make(llm, provider, rec), rec)
    assert response.message.text == "fine"
    assert len(llm.requests) == 2
    assert rec.sleeps == [1.0, 1.0, 1.0]
    assert rec.retries == [(1, 3.0, "HTTP 429"), (1, 2.0, "HTTP 429"), (1, 1.0, "HTTP 429")]


def first_waits(rec: Recorder) -> dict[int, tuple[float, str]]:
    """The wait announced when each retry was scheduled (later calls count down)."""
    firsts: dict[int, tuple[float, str]] = {}
    for attempt, wait, reason in rec.retries:
        firsts.setdefault(attempt, (wait, reason))
    return firsts


@pytest.mark.parametrize("provider", WIRES)
def test_5xx_and_overloaded_back_off_exponentially(provider, llm):
    llm.add(HttpError(503), HttpError(529), HttpError(500), Reply("ok"))
    rec = Recorder()
    assert ask(make(llm, provider, rec), rec).message.text == "ok"
    firsts = first_waits(rec)
    assert [firsts[n][1] for n in (1, 2, 3)] == ["HTTP 503", "HTTP 529", "HTTP 500"]
    waits = [firsts[n][0] for n in (1, 2, 3)]
    assert 0.25 <= waits[0] <= 0.5 and 0.5 <= waits[1] <= 1.0 and 1.0 <= waits[2] <= 2.0
    assert sum(rec.sleeps) == pytest.approx(sum(waits))


def test_backoff_is_capped_and_jittered():
    assert backoff(1, rand=lambda: 0.0) == 0.25 and backoff(1, rand=lambda: 1.0) == 0.5
    assert backoff(20, rand=lambda: 1.0) == 30.0


@pytest.mark.parametrize("provider", WIRES)
@pytest.mark.parametrize("status", [400, 401, 403, 404])
def test_client_errors_are_not_retried(provider, status, llm):
    llm.add(HttpError(status, "nope"))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, provider, rec), rec)
    assert len(llm.requests) == 1 and rec.sleeps == []
    line = str(err.value)
    assert "\n" not in line and "fake-secret-value" not in line
    if status == 401:
        assert PROFILES[provider].key_var in line
    if status == 404:
        assert "the-model" in line and provider in line


@pytest.mark.parametrize(
    "provider,var", [("zhipu", "ZHIPUAI_API_KEY"), ("deepseek", "DEEPSEEK_API_KEY")]
)
def test_bad_key_line_names_the_variable(provider, var, llm):
    llm.add(HttpError(401, "Incorrect API key provided: fake-secret-value"))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, provider, rec), rec)
    assert str(err.value) == (
        f"{provider} rejected the API key (HTTP 401): check {var}"
        " [server: Incorrect API key provided: …]"
    )  # the server's words, without the key it echoed


@pytest.mark.parametrize("message", ["Model Not Exist", "模型不存在，请检查模型代码"])
def test_unknown_model_reported_as_400_names_model_and_provider(message, llm):
    llm.add(HttpError(400, message))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, "deepseek", rec), rec)
    assert "does not know model 'the-model'" in str(err.value) and "deepseek" in str(err.value)


@pytest.mark.parametrize(
    "provider,status,message,code",
    [
        ("anthropic", 400, "prompt is too long: 210000 tokens > 200000 maximum", ""),
        ("openai", 400, "This model's maximum context length is 128000 tokens.", ""),
        ("openrouter", 400, "Input is rejected", "context_length_exceeded"),
        ("zhipu", 413, "Request exceeds the maximum allowed size", ""),
    ],
)
def test_context_too_long_suggests_compact(provider, status, message, code, llm):
    llm.add(HttpError(status, message, code=code))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, provider, rec), rec)
    assert "/compact" in str(err.value) and "the-model" in str(err.value)


def test_retries_run_out_with_a_clear_line(llm):
    llm.add(HttpError(503), HttpError(503), HttpError(503))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, "openai", rec, max_retries=2), rec)
    assert len(llm.requests) == 3
    assert "after 2 retries" in str(err.value) and "--provider" in str(err.value)


@pytest.mark.parametrize("provider", WIRES)
def test_a_5xx_line_carries_the_servers_own_message(provider, llm):
    llm.add(HttpError(500, "tools param requires --jinja flag"))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, provider, rec, max_retries=0), rec)
    assert str(err.value).endswith("[server: tools param requires --jinja flag]")


def test_quota_exhausted_429_is_not_retried(llm):
    llm.add(HttpError(429, "You exceeded your current quota", code="insufficient_quota"))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, "openai", rec), rec)
    assert len(llm.requests) == 1 and rec.sleeps == []
    line = str(err.value)
    assert "no credit or quota" in line and "(HTTP 429 insufficient_quota, quota)" in line
    assert "HTTP 402" not in line and "[server: You exceeded your current quota]" in line


def test_zhipu_balance_429_is_not_retried(llm):
    llm.add(HttpError(429, "余额不足或无可用资源包,请充值。", code="1113"))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, "zhipu", rec), rec)
    assert len(llm.requests) == 1 and "no credit or quota" in str(err.value)


def test_huge_retry_after_is_reported_not_slept(llm):
    llm.add(HttpError(429, headers={"retry-after": "3600"}))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, "anthropic", rec), rec)
    assert rec.sleeps == [] and "rate-limiting" in str(err.value)


@pytest.mark.parametrize("provider", WIRES)
def test_overloaded_in_stream_before_output_is_retried(provider, llm):
    llm.add(StreamError(Reply("never shown"), after_events=1), Reply("second try"))
    rec = Recorder()
    assert ask(make(llm, provider, rec), rec).message.text == "second try"
    assert rec.retries[0][2] == "overloaded"


@pytest.mark.parametrize("provider", WIRES)
def test_overloaded_in_stream_after_output_is_reported(provider, llm):
    llm.add(StreamError(Reply("partial answer", chunk_size=3), after_events=5))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, provider, rec), rec)
    assert "broke off midway" in str(err.value) and len(llm.requests) == 1
    assert any(isinstance(e, TextDelta) for e in rec.events)


@pytest.mark.parametrize("provider", WIRES)
def test_disconnect_before_output_is_retried_once_from_the_start(provider, llm):
    llm.add(Disconnect(Reply("lost"), after_events=1), Reply("whole answer"))
    rec = Recorder()
    response = ask(make(llm, provider, rec), rec)
    assert response.message.text == "whole answer"
    assert "".join(e.text for e in rec.events if isinstance(e, TextDelta)) == "whole answer"
    assert len(llm.requests) == 2 and rec.retries[0][2] == "connection dropped"


@pytest.mark.parametrize("provider", WIRES)
def test_second_disconnect_before_output_is_reported(provider, llm):
    llm.add(Disconnect(Reply("lost"), after_events=1), Disconnect(Reply("lost"), after_events=1))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, provider, rec), rec)
    assert len(llm.requests) == 2 and "connection dropped" in str(err.value)


@pytest.mark.parametrize("provider", WIRES)
def test_disconnect_after_output_is_reported_not_retried(provider, llm):
    llm.add(Disconnect(Reply("a long answer that breaks", chunk_size=2), after_events=5))
    rec = Recorder()
    with pytest.raises(ModelError) as err:
        ask(make(llm, provider, rec), rec)
    assert len(llm.requests) == 1 and rec.retries == []
    assert "broke off midway" in str(err.value) and "ask again" in str(err.value)


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.mark.parametrize("provider", ["deepseek", "anthropic"])
def test_closed_port_is_retried_once_and_asks_whether_the_server_runs(provider, llm):
    rec = Recorder()
    url = f"http://127.0.0.1:{closed_port()}" + ("/v1" if provider == "deepseek" else "")
    with pytest.raises(ModelError) as err:
        ask(make(llm, provider, rec, url=url, max_retries=4), rec)
    assert [reason for _, reason in first_waits(rec).values()] == ["connection refused"]
    var = PROFILES[provider].base_url_var
    assert str(err.value) == (
        f"nothing is listening at {url}: is the server running? (or fix {var})"
    )


def test_unknown_host_is_not_retried():
    """The SDK's connection error wraps httpx's, which wraps the resolver's (no lookup here:
    tests stay on loopback)."""
    import httpx
    import openai

    from core.model.retry import Target, error_line

    try:
        try:
            raise socket.gaierror(-2, "Name or service not known")
        except socket.gaierror as low:
            raise httpx.ConnectError("[Errno -2] Name or service not known") from low
    except httpx.ConnectError as mid:
        request = httpx.Request("POST", "http://no-such-host.invalid/v1/chat/completions")
        exc = openai.APIConnectionError(request=request)
        exc.__cause__ = mid
    failure = classify(exc)
    assert (failure.kind, failure.retryable) == ("no-host", False)
    target = Target("deepseek", "m", None, "http://no-such-host.invalid/v1", "DEEPSEEK_BASE_URL", 5)
    assert error_line(failure, target) == (
        "cannot find the host of http://no-such-host.invalid/v1: check DEEPSEEK_BASE_URL "
        "and the network"
    )


def test_read_timeout_is_configurable_and_reported(llm):
    slow = Reply("late", delay=2.0)
    llm.add(slow, Reply("late", delay=2.0))
    rec = Recorder()
    client = make(llm, "anthropic", rec, timeout=0.3)
    with pytest.raises(ModelError) as err:
        ask(client, rec)
    assert "within 0.3s" in str(err.value) and "UNICUM_TIMEOUT" in str(err.value)
    assert len(llm.requests) == 2  # restarted once: nothing had been shown


def test_retry_after_parsing():
    class Resp:
        def __init__(self, headers):
            self.headers = headers

    class Exc(Exception):
        def __init__(self, headers):
            self.response = Resp(headers)

    assert retry_after(Exc({"retry-after": "7"})) == 7.0
    assert retry_after(Exc({"retry-after-ms": "1500", "retry-after": "9"})) == 1.5
    assert (
        retry_after(Exc({"retry-after": "Wed, 21 Oct 2015 07:28:10 GMT"}), now=lambda: 1445412480.0)
        == 10.0
    )
    assert retry_after(Exc({})) is None and retry_after(ValueError()) is None
    assert classify(ValueError("x")).retryable is False
