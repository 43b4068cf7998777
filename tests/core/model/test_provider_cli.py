"""Provider behaviour as a person sees it: `-p` exit codes and stderr lines, Ctrl-C, selection."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from core.agent import AgentHooks, SessionOptions, create_agent
from core.model import resolve_provider
from my_agent.errors import ConfigError, Interrupted
from my_agent.messages import TextDelta
from tests.conftest import ROOT, provider_env, run_cli
from tests.helpers.fake_llm import HttpError, Reply


def test_401_in_print_mode_is_one_clear_line_and_exit_1(llm, workspace):
    llm.add(HttpError(401, "invalid x-api-key"))
    proc = run_cli(
        "--dir", str(workspace), "-p", "hi", "--provider", "zhipu", env=provider_env(llm, "zhipu")
    )
    assert proc.returncode == 1
    assert proc.stdout == ""
    assert proc.stderr.strip() == (
        "unicum: zhipu rejected the API key (HTTP 401): check ZHIPUAI_API_KEY"
        " [server: invalid x-api-key]"
    )
    assert "fake-test-key" not in proc.stderr and len(llm.requests) == 1


def test_429_then_200_in_print_mode_shows_the_retry_and_the_auto_pick(llm, workspace):
    llm.add(HttpError(429, "slow down", headers={"retry-after": "0"}), Reply("made it"))
    env = {**provider_env(llm, "openai"), "DEEPSEEK_API_KEY": "fake-other-key"}
    proc = run_cli("--dir", str(workspace), "-p", "hi", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "made it"
    lines = proc.stderr.strip().splitlines()
    assert lines[0] == (
        "unicum: several API keys set (openai, deepseek); using openai "
        "(choose with --provider or UNICUM_PROVIDER)"
    )
    assert lines[1] == "unicum: rate limited (HTTP 429): retry 1 in 0s"
    assert len(llm.requests) == 2


def test_ctrl_c_in_print_mode_stops_the_stream_promptly(llm, workspace):
    llm.add(Reply("word " * 400, chunk_size=5, delay=0.2))  # 80 s: longer than the hang-guard
    env = provider_env(llm, "openai")
    proc = subprocess.Popen(
        [
            sys.executable,
            str(ROOT / "cli.py"),
            "--dir",
            str(workspace),
            "-p",
            "hi",
            "--provider",
            "openai",
        ],
        cwd=ROOT,
        text=True,
        env={**os.environ, **env},
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    _wait_for(lambda: llm.requests and llm.requests[0].sent >= 3, 120)  # the stream under way
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)  # a client reading on would take the stream's 80 s
    assert proc.returncode == 1 and "interrupted" in err and "Traceback" not in err
    _wait_for(lambda: llm.requests[0].aborted)  # it hung up mid-stream: no stopwatch needed


def _wait_for(condition, seconds: float = 30.0) -> None:
    """Poll until `condition`; `seconds` is a hang-guard (the condition holds in a moment)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.02)


class StopAfterFirstText(AgentHooks):
    def __init__(self) -> None:
        self.armed = True

    def on_stream(self, event) -> None:
        if self.armed and isinstance(event, TextDelta):
            self.armed = False
            raise KeyboardInterrupt  # what Ctrl-C raises in the main thread mid-stream


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_ctrl_c_mid_stream_closes_the_connection_and_keeps_the_session(
    provider, llm, workspace, monkeypatch
):
    for name, value in provider_env(llm, provider).items():
        monkeypatch.setenv(name, value)
    llm.add(Reply("x" * 400, chunk_size=2, delay=0.1))  # 20 s if read to the end
    llm.reply("second answer")
    agent = create_agent(
        SessionOptions(workspace=workspace, provider=provider), hooks=StopAfterFirstText()
    )
    with pytest.raises(Interrupted):
        agent.run("first task")
    assert len(agent.history) == 1  # the partial reply is not kept
    _wait_for(lambda: llm.requests[0].aborted)
    result = agent.run("second task")
    assert result.text == "second answer"
    body = llm.requests[1].body
    if provider == "anthropic":
        texts = [b["text"] for b in body["messages"][0]["content"]]
        assert texts == ["first task", "second task"] and len(body["messages"]) == 1
    else:
        assert body["messages"][1] == {"role": "user", "content": "first task\n\nsecond task"}


def test_selection_order(isolated_home, monkeypatch):
    monkeypatch.delenv("UNICUM_TIMEOUT", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "k1")
    monkeypatch.setenv("DEEPSEEK_API_KEY", "k2")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "k3")
    auto = resolve_provider()
    assert auto.profile.name == "openai" and "openai, anthropic, deepseek" in auto.note
    (isolated_home / "config.json").write_text(
        json.dumps({"provider": "deepseek", "model": "deepseek-reasoner", "timeout": 42})
    )
    from_file = resolve_provider()
    assert (from_file.profile.name, from_file.model, from_file.timeout) == (
        "deepseek",
        "deepseek-reasoner",
        42.0,
    )
    assert from_file.note == ""
    monkeypatch.setenv("UNICUM_PROVIDER", "anthropic")
    monkeypatch.setenv("UNICUM_MODEL", "claude-x")
    monkeypatch.setenv("UNICUM_TIMEOUT", "7.5")
    from_env = resolve_provider()
    assert (from_env.profile.name, from_env.model, from_env.timeout) == (
        "anthropic",
        "claude-x",
        7.5,
    )
    flags = resolve_provider("openai", "gpt-4.1")
    assert (flags.profile.name, flags.model) == ("openai", "gpt-4.1")


def test_bad_timeout_and_unknown_provider_are_config_errors(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setenv("UNICUM_TIMEOUT", "soon")
    with pytest.raises(ConfigError, match="UNICUM_TIMEOUT"):
        resolve_provider()
    monkeypatch.delenv("UNICUM_TIMEOUT")
    with pytest.raises(ConfigError, match="unknown provider 'gpt'"):
        resolve_provider("gpt")


def test_local_providers_need_no_key_but_compatible_needs_url_and_model(monkeypatch):
    assert resolve_provider("ollama").api_key is None
    with pytest.raises(ConfigError, match="UNICUM_BASE_URL"):
        resolve_provider("openai-compatible")
    monkeypatch.setenv("UNICUM_BASE_URL", "http://127.0.0.1:9/v1")
    with pytest.raises(ConfigError, match="UNICUM_MODEL"):
        resolve_provider("openai-compatible")
    monkeypatch.setenv("UNICUM_MODEL", "qwen")
    local = resolve_provider("openai-compatible")
    assert (local.model, local.api_key) == ("qwen", None)
