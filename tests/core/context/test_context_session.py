"""Context through real sessions: the real CLI and SDKs against the scripted server."""

from __future__ import annotations

import json

import pytest

from core.agent import SessionOptions, breakdown, compact_session, create_agent, status
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, user_text
from my_agent.tokens import estimate_tokens
from tests.conftest import provider_env, run_cli

READS = 32


def _module(n: int) -> str:
    return "\n".join(
        f"def feature_{n}_{i}(value):\n    return value * {i}  # 计算 {i}\n" for i in range(90)
    )


def _stable(body: dict) -> list:
    """The request's messages without per-request cache markers."""
    text = json.dumps(body.get("messages", []), ensure_ascii=False)
    return json.loads(text.replace(', "cache_control": {"type": "ephemeral"}', ""))


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_long_session_stays_bounded_with_a_stable_prefix(provider, llm, workspace):
    for n in range(READS):
        (workspace / f"mod_{n}.py").write_text(_module(n), encoding="utf-8")
        llm.call("read_file", {"path": f"mod_{n}.py"})
    llm.reply("All modules read.")

    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "read every module",
        "--provider",
        provider,
        "--max-turns",
        "40",
        "--no-codemap",
        env=provider_env(llm, provider),
        timeout=120,
    )

    assert proc.returncode == 0, proc.stderr
    bodies = [r.body for r in llm.requests]
    assert len(bodies) == READS + 1
    tool_lists = {json.dumps(b["tools"], sort_keys=True) for b in bodies}
    assert len(tool_lists) == 1 and "recall" in next(iter(tool_lists))  # never changes
    events = 0
    for before, after in zip(bodies, bodies[1:], strict=False):
        old, new = _stable(before), _stable(after)
        if new[: len(old)] != old:
            events += 1  # a compaction event: the only time the prefix may change
    assert 1 <= events <= READS // 2  # in batches, never on every request
    naive = sum(len(_module(n)) for n in range(READS))
    sizes = [len(json.dumps(b["messages"], ensure_ascii=False)) for b in bodies]
    assert max(sizes[READS // 2 :]) < 0.5 * naive  # bounded (events batch ~10k tokens)
    last = json.dumps(bodies[-1]["messages"], ensure_ascii=False)
    assert "[archived #a1]" in last
    assert "feature_0_1(value)" not in last and "read every module" in last


def test_compact_at_the_window_limit(llm, workspace, monkeypatch):
    """Ollama's 32K window, already overfull: /compact's own request still fits."""
    for key, value in provider_env(llm, "ollama").items():
        monkeypatch.setenv(key, value)
    agent = create_agent(SessionOptions(workspace=workspace, provider="ollama"))
    agent.history.append(user_text("把 API 迁移到 v2 — migrate the API to v2"))
    for n in range(30):  # ~60K tokens of tool output: twice the window
        call = ToolCall(f"c{n}", "read_file", {"path": f"mod_{n}.py"})
        agent.history.append(Message("assistant", [TextBlock(f"reading {n}"), call]))
        agent.history.append(Message("user", [ToolResult(call.id, _module(n))]))
    window = agent.context.budget.window_tokens
    assert sum(tokens for _, tokens in breakdown(agent)) > window

    llm.reply(
        "## Task\nmigrate the API to v2\n## Decisions\nkeep v1 shims\n## Files changed\n"
        "none\n## Open todo\nupdate callers\n## Test status\nnot run"
    )
    llm.reply("Continuing with the callers.")
    summary = compact_session(agent)
    result = agent.run("continue")

    assert "## Open todo" in summary and result.text == "Continuing with the callers."
    summary_request, next_request = (r.body for r in llm.requests)
    assert not summary_request.get("tools")
    for body in (summary_request, next_request):
        assert estimate_tokens(json.dumps(body, ensure_ascii=False)) < window
    sent = json.dumps(next_request["messages"], ensure_ascii=False)
    assert "migrate the API to v2" in sent and "update callers" in sent and "continue" in sent
    parts = dict(breakdown(agent))
    assert parts["summary"] > 0 and sum(parts.values()) < window
    assert status(agent)["compactions"] >= 1


@pytest.mark.parametrize("kind", ["masking", "full"])
def test_the_baseline_context_policies_are_one_flag_away(kind, llm, workspace):
    reads = 12
    for n in range(reads):
        (workspace / f"mod_{n}.py").write_text(_module(n), encoding="utf-8")
        llm.call("read_file", {"path": f"mod_{n}.py"})
    llm.reply("All modules read.")

    proc = run_cli(
        "--dir", str(workspace), "-p", "read every module", "--provider", "openai",
        "--max-turns", "20", "--no-codemap", "--context-policy", kind,
        env=provider_env(llm, "openai"), timeout=120,
    )  # fmt: skip

    assert proc.returncode == 0, proc.stderr
    last = json.dumps(llm.requests[-1].body["messages"], ensure_ascii=False)
    shown = sum(f"def feature_{n}_89" in last for n in range(reads))
    if kind == "masking":  # older outputs archived for recall in 10k batches, the last 3 whole
        assert 3 <= shown < reads and last.count("[output archived #a") == reads - shown
    else:
        assert shown == reads and "archived #" not in last


def test_context_tool_schema_figure_matches_the_providers_count_once_usage_is_seen(
    llm, workspace, monkeypatch
):
    for key, value in provider_env(llm, "openai").items():
        monkeypatch.setenv(key, value)
    for n in range(4):
        (workspace / f"mod_{n}.py").write_text(_module(n), encoding="utf-8")
        llm.call("read_file", {"path": f"mod_{n}.py"})
    llm.reply("Read them.")
    agent = create_agent(SessionOptions(workspace=workspace, provider="openai", codemap=False))
    before = dict(breakdown(agent))["tool schemas"]  # the local estimate: JSON counted high

    agent.run("read the modules")

    real = len(json.dumps(llm.requests[-1].body["tools"])) // 4  # what the server counts
    shown = dict(breakdown(agent))["tool schemas"]
    assert abs(before - real) > 0.1 * real  # the estimate alone is off ...
    assert abs(shown - real) <= 0.05 * real  # ... the calibrated figure is within 5%
