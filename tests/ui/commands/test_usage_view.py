"""/usage says which cache counts a provider does not report instead of showing zeros."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from core.agent import SessionOptions, create_agent
from core.model.providers import PROFILES
from tests.conftest import provider_env
from ui.commands.usage import render_usage
from ui.words.strings import Strings


def test_profiles_say_which_cache_fields_they_report():
    assert PROFILES["anthropic"].reports_cache_reads and PROFILES["anthropic"].reports_cache_writes
    assert (
        PROFILES["deepseek"].reports_cache_reads and not PROFILES["deepseek"].reports_cache_writes
    )
    assert (
        not PROFILES["ollama"].reports_cache_reads and not PROFILES["ollama"].reports_cache_writes
    )


@pytest.mark.parametrize(
    "provider,shown", [("ollama", "not reported by ollama"), ("anthropic", "cache-write tokens")]
)
def test_usage_table_marks_unreported_cache_counts(provider, shown, llm, workspace, monkeypatch):
    for key, value in provider_env(llm, provider).items():
        monkeypatch.setenv(key, value)
    agent = create_agent(SessionOptions(workspace=workspace, provider=provider, codemap=False))
    out = io.StringIO()
    render_usage(Console(file=out, width=120), Strings("en"), agent)
    text = out.getvalue()
    assert shown in text
    if provider == "anthropic":
        assert "not reported" not in text
