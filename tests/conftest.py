"""Shared fixtures: an isolated Unicum home, a clean environment and the scripted LLM server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.fake_llm import ScriptedLLM

ROOT = Path(__file__).resolve().parent.parent
KEY_VARS = (
    "ZHIPUAI_API_KEY",
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "OPENROUTER_API_KEY",
    "DEEPSEEK_API_KEY",
    "UNICUM_API_KEY",
    "TAVILY_API_KEY",
)
URL_VARS = (
    "ZHIPUAI_ANTHROPIC_BASE_URL",
    "OPENAI_BASE_URL",
    "ANTHROPIC_BASE_URL",
    "OPENROUTER_BASE_URL",
    "DEEPSEEK_BASE_URL",
    "OLLAMA_BASE_URL",
    "UNICUM_BASE_URL",
    "UNICUM_PROVIDER",
    "UNICUM_MODEL",
    "ZHIPUAI_BASE_URL",
    "TAVILY_BASE_URL",
    "UNICUM_CONTEXT_WINDOW",
    "UNICUM_PROVIDER_PRICES",
    "DDGS_PROXY",
    "UNICUM_ZHIPU_SEARCH_ENGINE",
)


def pytest_configure(config: pytest.Config) -> None:
    """The signals a terminal delivers reach the processes the tests start, even when the run
    itself was started with them ignored (`nohup`, a background job of a script): an ignored
    signal stays ignored across exec, and the Ctrl-C and closed-terminal tests would then
    test nothing but the ignoring."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if signal.getsignal(signal.SIGHUP) == signal.SIG_IGN:
        signal.signal(signal.SIGHUP, signal.SIG_DFL)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh Unicum home, user HOME and working directory per test: a developer's `.env`,
    `~/.claude/CLAUDE.md` or real home never leak into a test."""
    home = tmp_path / "unicum-home"
    home.mkdir()
    # the test's own folders are trusted (tests/test_trust.py removes this to test the rest)
    (home / "trusted.json").write_text(json.dumps({"folders": [str(tmp_path.resolve())]}))
    monkeypatch.setenv("UNICUM_HOME", str(home))
    user_home = tmp_path / "user-home"
    user_home.mkdir()
    monkeypatch.setenv("HOME", str(user_home))
    monkeypatch.chdir(tmp_path)
    for var in KEY_VARS + URL_VARS:
        monkeypatch.delenv(var, raising=False)
    # an MCP server's start on a loaded machine (a Python process importing the SDK) takes
    # seconds: the tests' servers get ample time; a test of the deadline sets its own
    monkeypatch.setenv("UNICUM_MCP_TIMEOUT", "120")
    return home


@pytest.fixture(autouse=True)
def no_process_outlives_the_test():
    """A test that leaves a helper script running (an MCP server whose session was killed, ...)
    fails, naming it; the process is ended so it cannot outlive the run."""
    from tests.helpers.processes import left_running, now_ticks

    since = now_ticks()
    yield
    leftover = left_running(since)
    for pid in leftover:
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    assert not leftover, f"processes left running by this test: {leftover}"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


@pytest.fixture
def llm():
    server = ScriptedLLM().start()
    yield server
    server.stop()
    server.assert_done()


def provider_env(server: ScriptedLLM, provider: str) -> dict[str, str]:
    """Environment variables that point `provider` at the scripted server."""
    from core.model.providers import PROFILES, WireFormat

    profile = PROFILES[provider]
    url = server.url if profile.wire is WireFormat.ANTHROPIC else server.openai_url
    env = {profile.base_url_var: url}
    if profile.key_var:
        env[profile.key_var] = "fake-test-key"
    if provider == "openai-compatible":
        env["UNICUM_MODEL"] = "local-model"
    if profile.default_base_url and provider != "ollama":
        env["UNICUM_PROVIDER_PRICES"] = "1"  # loopback stands in for the provider's service
    return env


def run_cli(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    """Run `python cli.py ARGS` as a person would, with the test's environment plus `env`,
    in `cwd` (default: the test's own working directory, its tmp_path)."""
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, str(ROOT / "cli.py"), *args],
        capture_output=True,
        text=True,
        env=full_env,
        cwd=cwd or Path.cwd(),
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )
