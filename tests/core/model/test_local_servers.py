"""Local servers understood: the window they report, their overflow and error messages, no
streamed usage; driven through the real OpenAI SDK against the scripted server."""

from __future__ import annotations

import pytest

from core.model import ModelClient, ResolvedProvider, discover_window
from core.model.providers import PROFILES
from my_agent.errors import ConfigError, ModelError
from my_agent.messages import user_text
from tests.conftest import provider_env, run_cli
from tests.helpers.fake_llm import (
    OVERFLOW_MESSAGES,
    HttpError,
    Reply,
    llama_cpp_no_jinja,
    llama_cpp_overflow,
)
from ui.words.strings import Strings


def local(llm, name: str = "openai-compatible", model: str = "qwen2.5-coder") -> ResolvedProvider:
    return ResolvedProvider(PROFILES[name], model, llm.openai_url, None)


def ask(client: ModelClient):
    return client.stream("sys", [user_text("q")], [], lambda event: None)


def test_llama_cpp_props_give_the_window_and_cap_max_tokens(llm):
    llm.props = {"default_generation_settings": {"n_ctx": 2048}, "total_slots": 1}
    provider = discover_window(local(llm))
    assert (provider.profile.context_window, provider.window_source) == (2048, "llama.cpp")
    assert llm.probes == ["/props"]
    llm.reply("ok")
    ask(ModelClient(provider))
    sent = llm.requests[0].body["max_tokens"]
    assert 256 <= sent <= 2048 - len("sys") and sent < 8192  # not the profile's 8192


def test_ollama_show_gives_num_ctx_before_the_models_own_length(llm):
    llm.ollama_show = {
        "parameters": "stop <|im_end|>\nnum_ctx 4096",
        "model_info": {"qwen2.context_length": 32768},
    }
    assert discover_window(local(llm, "ollama")).profile.context_window == 4096
    llm.ollama_show = {
        "model_info": {"general.architecture": "qwen2", "qwen2.context_length": 8192}
    }
    provider = discover_window(local(llm, "ollama"))
    assert (provider.profile.context_window, provider.window_source) == (8192, "ollama")


def test_vllm_models_give_max_model_len_of_the_chosen_model(llm):
    llm.models = {
        "object": "list",
        "data": [
            {"id": "other", "max_model_len": 4096},
            {"id": "qwen2.5-coder", "max_model_len": 16384},
        ],
    }
    provider = discover_window(local(llm))
    assert (provider.profile.context_window, provider.window_source) == (16384, "vllm")


def test_setting_when_the_server_says_nothing_and_a_smaller_one_wins(llm, monkeypatch):
    assert discover_window(local(llm)).profile.context_window == 128_000  # nothing said
    monkeypatch.setenv("UNICUM_CONTEXT_WINDOW", "6000")
    provider = discover_window(local(llm))
    assert (provider.profile.context_window, provider.window_source) == (6000, "setting")
    llm.props = {"default_generation_settings": {"n_ctx": 4096}}
    assert discover_window(local(llm)).profile.context_window == 4096
    monkeypatch.setenv("UNICUM_CONTEXT_WINDOW", "lots")
    with pytest.raises(ConfigError, match="UNICUM_CONTEXT_WINDOW"):
        discover_window(local(llm))


def test_config_json_context_window(llm, isolated_home):
    (isolated_home / "config.json").write_text('{"context_window": 3000}')
    assert discover_window(local(llm)).profile.context_window == 3000


def test_the_providers_own_service_is_not_probed():
    own = ResolvedProvider(PROFILES["openai"], "gpt-4o", "https://api.openai.com/v1", "fake-k")
    assert discover_window(own) is own  # no request leaves the machine


@pytest.mark.parametrize("server", sorted(OVERFLOW_MESSAGES))
@pytest.mark.parametrize("status", [400, 500])
def test_local_overflow_messages_are_too_long(server, status, llm):
    llm.add(HttpError(status, OVERFLOW_MESSAGES[server]))
    with pytest.raises(ModelError) as err:
        ask(ModelClient(local(llm), sleep=lambda s: None))
    assert err.value.too_long and "/compact" in str(err.value)
    assert len(llm.requests) == 1  # an overflow is never retried


def test_llama_cpp_overflow_body_and_no_jinja_500(llm):
    llm.add(llama_cpp_overflow(), llama_cpp_no_jinja())
    client = ModelClient(local(llm), max_retries=0)
    with pytest.raises(ModelError) as err:
        ask(client)
    assert err.value.too_long
    with pytest.raises(ModelError) as err:
        ask(client)
    assert not err.value.too_long
    assert str(err.value).endswith("[server: tools param requires --jinja flag]")


def test_no_streamed_usage_is_estimated_locally(llm):
    llm.add(Reply("an answer", omit_usage=True))
    usage = ask(ModelClient(local(llm))).usage
    assert usage.estimated and usage.input > 0 and usage.output > 0


def test_new_lines_in_chinese():
    from core.agent.loop.agent import still_too_long
    from core.agent.loop.guard import stop_line
    from core.agent.loop.text_calls import server_fix
    from core.model.retry import Failure, Target, error_line
    from ui.words.strings import Strings

    zh, en = Strings("zh"), Strings("en")
    target = Target("ollama", "qwen", None, "http://127.0.0.1:1/v1", "OLLAMA_BASE_URL", 60)
    refused = error_line(Failure(None, "refused", True, "connection refused", ""), target)
    assert en.line(refused) == refused
    assert zh.line(refused) == (
        "http://127.0.0.1:1/v1 上没有服务在监听：服务器启动了吗？（或修改 OLLAMA_BASE_URL）"
    )
    quota = Failure(402, "http", False, "HTTP 429", "You exceeded your current quota",
                    "insufficient_quota", 429)  # fmt: skip
    assert zh.line(error_line(quota, target)) == (
        "ollama 提示账户额度不足（HTTP 429 insufficient_quota）：请充值，或用 --provider 切换"
        "［服务器：You exceeded your current quota］"
    )
    failing = Failure(500, "http", True, "HTTP 500", "tools param requires --jinja flag", "", 500)
    assert zh.line(error_line(failing, target, 2)).endswith(
        "［服务器：tools param requires --jinja flag］"
    )
    assert zh.line(error_line(failing, target, 2)).startswith("ollama 过载或出错（已重试 2 次）")
    for line in (
        stop_line("read_file", 5),
        server_fix("openai-compatible", "http://127.0.0.1:8080/v1"),
        server_fix("openai-compatible", "http://127.0.0.1:8080/v1", "llama.cpp"),
        still_too_long(ModelClient(ResolvedProvider(PROFILES["ollama"], "q", "http://x", None))),
        error_line(Failure(None, "no-host", False, "host not found", ""), target),
    ):
        assert zh.line(line) != line and en.line(line) == line


def test_max_output_tokens_caps_every_reply_and_a_bad_value_is_one_line(llm, workspace):
    llm.props = {"default_generation_settings": {"n_ctx": 16384}}
    llm.reply("ok")
    env = {**provider_env(llm, "openai-compatible"), "UNICUM_MAX_OUTPUT_TOKENS": "700"}
    args = ("--dir", str(workspace), "-p", "hi", "--provider", "openai-compatible")
    assert run_cli(*args, env=env).returncode == 0
    assert llm.requests[0].body["max_tokens"] == 700  # not the window's quarter, 4096
    bad = run_cli(*args, env={**env, "UNICUM_MAX_OUTPUT_TOKENS": "lots"})
    assert bad.returncode != 0 and bad.stderr.strip().splitlines()[-1].endswith(
        "max_output_tokens must be a positive whole number (got 'lots'): fix "
        "UNICUM_MAX_OUTPUT_TOKENS or 'max_output_tokens' in config.json"
    )
    said = Strings("zh").line(bad.stderr.strip().splitlines()[-1].removeprefix("unicum: "))
    assert "max_output_tokens 必须是正整数" in said
