"""Usage normalization for every shape providers report, through the parsers and the real SDKs."""

from __future__ import annotations

from core.model import ModelClient, ResolvedProvider
from core.model.anthropic_wire import usage_from_anthropic
from core.model.openai_wire import usage_from_openai
from core.model.providers import PROFILES
from my_agent.messages import Usage, user_text


def test_anthropic_input_excludes_cache_reads_and_writes():
    usage = usage_from_anthropic(
        {
            "input_tokens": 10,
            "cache_creation_input_tokens": 2000,
            "cache_read_input_tokens": 500,
            "output_tokens": 57,
        }
    )
    assert usage == Usage(input=10, cache_read=500, cache_write=2000, output=57)
    assert usage.total_input == 2510


def test_anthropic_null_cache_fields_count_as_zero():
    usage = usage_from_anthropic(
        {
            "input_tokens": 12,
            "cache_creation_input_tokens": None,
            "cache_read_input_tokens": None,
            "output_tokens": 3,
        }
    )
    assert usage == Usage(input=12, output=3)


def test_openai_prompt_tokens_include_cached_tokens():
    usage = usage_from_openai(
        {
            "prompt_tokens": 1000,
            "completion_tokens": 40,
            "prompt_tokens_details": {"cached_tokens": 800},
            "completion_tokens_details": {"reasoning_tokens": 25},
        }
    )
    assert usage == Usage(input=200, cache_read=800, output=40, reasoning=25)
    assert usage.total_input == 1000


def test_openrouter_cache_writes_are_split_out():
    usage = usage_from_openai(
        {
            "prompt_tokens": 194,
            "completion_tokens": 2,
            "prompt_tokens_details": {"cached_tokens": 0, "cache_write_tokens": 100},
        }
    )
    assert usage == Usage(input=94, cache_write=100, output=2)


def test_deepseek_hit_and_miss_counts():
    usage = usage_from_openai(
        {
            "prompt_tokens": 1000,
            "completion_tokens": 9,
            "prompt_cache_hit_tokens": 600,
            "prompt_cache_miss_tokens": 400,
            "prompt_tokens_details": {"cached_tokens": 600},
        }
    )
    assert usage == Usage(input=400, cache_read=600, output=9)


def test_missing_usage_is_an_estimate_not_a_zero():
    assert usage_from_openai(None) == Usage(estimated=True)
    assert usage_from_openai({}) == Usage(estimated=True)
    assert usage_from_anthropic(None) == Usage(estimated=True)


def _client(llm, provider: str) -> ModelClient:
    profile = PROFILES[provider]
    url = llm.url if provider in ("anthropic", "zhipu") else llm.openai_url
    return ModelClient(ResolvedProvider(profile, "m", url, "k"))


def test_anthropic_message_delta_usage_is_cumulative(llm):
    # GLM-style: message_start carries placeholders, the final message_delta the real totals
    llm.reply(
        "hi",
        raw_usage={"input_tokens": 0, "output_tokens": 1},
        delta_usage={"input_tokens": 1200, "cache_read_input_tokens": 800, "output_tokens": 57},
    )
    # Anthropic-style: input and cache counts in message_start, only output in message_delta
    llm.reply(
        "hi",
        raw_usage={
            "input_tokens": 10,
            "cache_creation_input_tokens": 2000,
            "cache_read_input_tokens": 0,
            "output_tokens": 1,
        },
        delta_usage={"output_tokens": 57},
    )
    client = _client(llm, "zhipu")
    glm = client.stream("sys", [user_text("q")], [], lambda e: None).usage
    claude = client.stream("sys", [user_text("q")], [], lambda e: None).usage
    assert glm == Usage(input=1200, cache_read=800, output=57)
    assert claude == Usage(input=10, cache_write=2000, output=57)


def test_streamed_openai_and_deepseek_usage(llm):
    llm.reply(
        "a",
        raw_usage={
            "prompt_tokens": 300,
            "completion_tokens": 5,
            "prompt_tokens_details": {"cached_tokens": 256},
        },
    )
    llm.reply(
        "b",
        raw_usage={
            "prompt_tokens": 300,
            "completion_tokens": 5,
            "prompt_cache_hit_tokens": 128,
            "prompt_cache_miss_tokens": 172,
        },
    )
    first = _client(llm, "openai").stream("sys", [user_text("q")], [], lambda e: None).usage
    second = _client(llm, "deepseek").stream("sys", [user_text("q")], [], lambda e: None).usage
    assert first == Usage(input=44, cache_read=256, output=5)
    assert second == Usage(input=172, cache_read=128, output=5)


def test_server_without_usage_gets_a_local_estimate(llm):
    llm.reply("一些中文回答 and some words", omit_usage=True)
    usage = (
        _client(llm, "ollama")
        .stream("a system prompt", [user_text("写一个函数")], [], lambda e: None)
        .usage
    )
    assert usage.estimated
    assert usage.input > 5 and usage.output >= 8
    assert usage.cache_read == 0 and usage.cache_write == 0
