"""Every provider profile: a streamed tool-calling round trip through the CLI and the real SDKs,
its base URL overridden by its own variable; reasoning handling and cache-friendly prefixes."""

from __future__ import annotations

import json

import pytest

import cli
from core.model import ModelClient, ResolvedProvider
from core.model.providers import PROFILES, WireFormat
from my_agent.messages import ReasoningDelta, TextDelta, user_text
from tests.conftest import provider_env

ALL = list(PROFILES)
THINKING = "I should write the file first."


def run_main(monkeypatch, capsys, env: dict[str, str], *args: str) -> tuple[int, str, str]:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("provider", ALL)
def test_tool_round_trip(provider, llm, workspace, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    profile = PROFILES[provider]
    signature = "" if provider == "zhipu" else "sig=="  # GLM's thinking may come unsigned
    llm.call(
        "write_file",
        {"path": "a.txt", "content": "héllo 你好\n"},
        reasoning=THINKING,
        signature=signature,
    )
    llm.reply("wrote a.txt")

    code, out, err = run_main(
        monkeypatch,
        capsys,
        provider_env(llm, provider),
        "--dir",
        str(workspace),
        "-p",
        "write a.txt",
        "--provider",
        provider,
    )

    assert code == 0, err
    assert out.strip() == "wrote a.txt"
    assert (workspace / "a.txt").read_text(encoding="utf-8") == "héllo 你好\n"
    first, second = llm.requests
    model = profile.default_model or "local-model"
    for rec in (first, second):
        assert rec.body["stream"] is True and rec.body["model"] == model
    if profile.wire is WireFormat.ANTHROPIC:
        _check_anthropic(provider, first, second)
    else:
        _check_openai(provider, first, second)


def _check_anthropic(provider, first, second):
    assert first.path == "/v1/messages"
    for rec in (first, second):
        assert "Unicum" in rec.body["system"][0]["text"]
        assert rec.body["max_tokens"] == PROFILES[provider].max_output
        assert rec.body["system"][-1]["cache_control"] == {"type": "ephemeral"}
        assert rec.body["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert first.headers["authorization"] == "Bearer fake-test-key"
    assistant, results = second.body["messages"][-2:]
    kinds = [b["type"] for b in assistant["content"]]
    assert kinds == ["thinking", "tool_use"]  # reasoning goes back with the tool call
    thinking = assistant["content"][0]
    assert thinking["thinking"] == THINKING
    assert thinking["signature"] == ("" if provider == "zhipu" else "sig==")
    call = assistant["content"][1]
    assert results["content"][0]["type"] == "tool_result"
    assert results["content"][0]["tool_use_id"] == call["id"]


def _check_openai(provider, first, second):
    assert first.path == "/v1/chat/completions"
    for rec in (first, second):
        system = rec.body["messages"][0]
        assert system["role"] == "system" and "Unicum" in system["content"]
    key = "max_completion_tokens" if PROFILES[provider].max_completion_tokens else "max_tokens"
    assert first.body[key] == PROFILES[provider].max_output
    if PROFILES[provider].key_var:
        assert first.headers["authorization"] == "Bearer fake-test-key"
    assistant, result = second.body["messages"][-2:]
    assert result["role"] == "tool"
    assert result["tool_call_id"] == assistant["tool_calls"][0]["id"]
    args = json.loads(assistant["tool_calls"][0]["function"]["arguments"])
    assert args["content"] == "héllo 你好\n"
    if provider == "deepseek":  # thinking mode answers 400 without it
        assert assistant["reasoning_content"] == THINKING
    else:
        assert "reasoning_content" not in assistant


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_reasoning_streams_as_its_own_event_kind(provider, llm):
    llm.reply("the answer", reasoning="thinking hard about it")
    profile = PROFILES[provider]
    url = llm.url if profile.wire is WireFormat.ANTHROPIC else llm.openai_url
    client = ModelClient(ResolvedProvider(profile, "m", url, "k"))
    events = []
    response = client.stream("sys", [user_text("q")], [], events.append)
    reasoning = "".join(e.text for e in events if isinstance(e, ReasoningDelta))
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert reasoning == "thinking hard about it" and text == "the answer"
    assert isinstance(events[0], ReasoningDelta) and isinstance(events[-1], TextDelta)
    assert response.message.text == "the answer"


def _strip_cache(value):
    if isinstance(value, dict):
        return {k: _strip_cache(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_strip_cache(v) for v in value]
    return value


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_prefix_is_byte_identical_across_turns(
    provider, llm, workspace, monkeypatch, capsys, tmp_path
):
    monkeypatch.chdir(tmp_path)
    llm.call("write_file", {"path": "a.py", "content": "x = 1\n"})
    llm.call("read_file", {"path": "a.py"})
    llm.reply("done")
    code, _, err = run_main(
        monkeypatch,
        capsys,
        provider_env(llm, provider),
        "--dir",
        str(workspace),
        "-p",
        "go",
        "--provider",
        provider,
    )
    assert code == 0, err
    bodies = [r.body for r in llm.requests]
    assert len(bodies) == 3
    if provider == "anthropic":
        prefixes = [json.dumps([b["tools"], b["system"]]) for b in bodies]
    else:
        prefixes = [json.dumps([b["tools"], b["messages"][0]]) for b in bodies]
    assert prefixes[0] == prefixes[1] == prefixes[2]
    # the history already sent is resent unchanged (cache markers aside): each request's
    # messages are a prefix of the next one's
    for before, after in zip(bodies, bodies[1:], strict=False):
        old, new = _strip_cache(before["messages"]), _strip_cache(after["messages"])
        assert new[: len(old)] == old


def test_anthropic_cache_breakpoints(llm, workspace, monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    llm.call("write_file", {"path": "a.py", "content": "x = 1\n"})
    llm.call("read_file", {"path": "a.py"})
    llm.reply("done")
    code, _, err = run_main(
        monkeypatch,
        capsys,
        provider_env(llm, "anthropic"),
        "--dir",
        str(workspace),
        "-p",
        "go",
        "--provider",
        "anthropic",
    )
    assert code == 0, err
    for n, rec in enumerate(llm.requests):
        body = rec.body
        assert body["tools"][-1]["cache_control"] == {"type": "ephemeral"}
        assert all("cache_control" not in t for t in body["tools"][:-1])
        assert body["system"][-1]["cache_control"] == {"type": "ephemeral"}
        marked = [
            i
            for i, m in enumerate(body["messages"])
            if any("cache_control" in b for b in m["content"])
        ]
        users = [i for i, m in enumerate(body["messages"]) if m["role"] == "user"]
        assert marked == users[-2:]  # the newest message and the previous request's newest
        assert all("cache_control" in body["messages"][i]["content"][-1] for i in marked)
        assert json.dumps(body).count("cache_control") <= 4
        assert len(marked) == min(2, n + 1)


def test_set_model_switches_the_next_request(llm):
    llm.reply("one").reply("two")
    client = ModelClient(ResolvedProvider(PROFILES["openai"], "gpt-4o", llm.openai_url, "k"))
    client.stream("sys", [user_text("q")], [], lambda e: None)
    client.set_model("gpt-4.1-mini")
    client.stream("sys", [user_text("q")], [], lambda e: None)
    assert [r.body["model"] for r in llm.requests] == ["gpt-4o", "gpt-4.1-mini"]
    with pytest.raises(ValueError):
        client.set_model("  ")
