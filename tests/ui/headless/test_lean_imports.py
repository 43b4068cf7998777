"""`-p` pays for no provider SDK: against the scripted server, on both wires (Zhipu, the
default provider, speaks Anthropic's), the process never imports `anthropic` or `openai`
(`python -X importtime` lists every module a process imports, on stderr)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.conftest import ROOT, provider_env

IMPORTED = re.compile(r"^import time:\s+\d+ \|\s+\d+ \|\s*([\w.]+)$", re.M)


def imported_by_p(llm, workspace, provider: str, *extra: str) -> tuple[set[str], str]:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", str(ROOT / "cli.py"), "--dir", str(workspace)]
        + ["-p", "say hi", "--provider", provider, *extra],
        capture_output=True,
        text=True,
        env={**os.environ, **provider_env(llm, provider)},
        stdin=subprocess.DEVNULL,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return {name.partition(".")[0] for name in IMPORTED.findall(proc.stderr)}, proc.stdout


@pytest.mark.parametrize("provider", ["zhipu", "anthropic", "openai", "deepseek"])
def test_p_imports_no_provider_sdk(llm, workspace, provider):
    llm.reply("hi there")
    packages, answer = imported_by_p(llm, workspace, provider)
    assert answer.strip() == "hi there"
    assert "httpx2" in packages  # what sent the request: the list is the whole process's
    assert not packages & {"anthropic", "openai"}


def test_the_sdk_fallback_is_what_imports_one(llm, workspace, monkeypatch):
    """`UNICUM_HTTP=sdk` (the documented fallback) sends through the SDK: the test above
    would see it."""
    monkeypatch.setenv("UNICUM_HTTP", "sdk")
    llm.reply("hi there")
    packages, answer = imported_by_p(llm, workspace, "zhipu")
    assert answer.strip() == "hi there" and "anthropic" in packages


def test_a_later_p_compiles_the_key_shapes_without_detect_secrets(llm, workspace):
    """The first run keeps detect-secrets' pattern sources in the home; the next imports
    neither it nor `requests`, which it brings."""
    (workspace / "CLAUDE.md").write_text("Run the tests with pytest.\n")  # redacted as sent
    llm.reply("one").reply("two")
    first, _ = imported_by_p(llm, workspace, "zhipu")
    later, answer = imported_by_p(llm, workspace, "zhipu")
    assert "detect_secrets" in first and answer.strip() == "two"
    assert not later & {"detect_secrets", "requests", "asyncio"}
