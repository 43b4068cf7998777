"""Asking a local server for its window never holds the session: a server that takes the
probe and never answers costs one bounded wait, the default (or the setting) applies with one
line, and the first request still goes out; a server that answers still has its window used."""

from __future__ import annotations

import json

from core.model import ResolvedProvider, discover_window
from core.model.providers import PROFILES
from tests.conftest import provider_env, run_cli
from ui.words.strings import Strings

LATE = "did not say its context window"


def run_p(llm, workspace, env: dict | None = None):
    proc = run_cli(
        "--dir", str(workspace), "-p", "hi", "--provider", "openai-compatible",
        "--output-format", "json", "--no-codemap",
        env={**provider_env(llm, "openai-compatible"), **(env or {})},
    )  # fmt: skip
    return proc, json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_server_that_never_answers_the_probe_gets_the_default_and_one_line(llm, workspace):
    llm.hang_probes = True
    llm.reply("hello")
    proc, out = run_p(llm, workspace)
    assert proc.returncode == 0 and out["result"] == "hello", proc.stderr
    late = [line for line in proc.stderr.splitlines() if LATE in line]
    assert len(late) == 1, proc.stderr
    assert f"{llm.url} {LATE} within 1 s; using the default, 128,000 tokens" in late[0]
    assert "UNICUM_CONTEXT_WINDOW" in late[0]
    assert llm.probes == ["/props"]  # the wait ended with the first probe still unanswered
    [request] = llm.requests  # the task's request went out, sized for the default window
    assert request.body["max_tokens"] == PROFILES["openai-compatible"].max_output


def test_a_silent_server_with_a_setting_uses_the_setting(llm, workspace):
    llm.hang_probes = True
    llm.reply("hello")
    proc, out = run_p(llm, workspace, {"UNICUM_CONTEXT_WINDOW": "4096"})
    assert proc.returncode == 0 and out["result"] == "hello", proc.stderr
    assert "using the context_window setting, 4,096 tokens" in proc.stderr
    assert llm.requests[0].body["max_tokens"] <= 1024  # a quarter of the set window at most


def test_a_props_server_still_gets_its_n_ctx_applied(llm, workspace):
    llm.props = {"default_generation_settings": {"n_ctx": 2048}}
    llm.reply("hello")
    proc, out = run_p(llm, workspace)
    assert proc.returncode == 0 and out["result"] == "hello", proc.stderr
    assert LATE not in proc.stderr and llm.probes == ["/props"]
    assert llm.requests[0].body["max_tokens"] <= 512  # capped to what a 2,048 window leaves


def test_discover_window_tells_the_late_server_once_and_keeps_the_profile(llm):
    llm.hang_probes = True
    said: list[str] = []
    provider = ResolvedProvider(PROFILES["ollama"], "qwen", llm.openai_url, None)
    found = discover_window(provider, said.append)
    assert found.profile.context_window == PROFILES["ollama"].context_window
    assert found.window_source == "profile" and len(said) == 1 and LATE in said[0]
    zh = Strings("zh").line(f"warning: {said[0]}")
    assert zh.startswith(f"警告：{llm.url} 的服务器没有在 1 秒内告知上下文窗口；使用默认值")
    assert "32,768 令牌" in zh
