"""The session as `open_session` builds it: the code map's overview joins the prompt at the
first task, a session resumed from another folder keeps its archive, tools without a service
say so."""

from __future__ import annotations

import json

from core.agent import SessionOptions, create_agent
from tests.conftest import provider_env, run_cli
from tools.base import ToolContext
from tools.registry import Registry


def _system(body: dict) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "system")


def test_first_task_puts_the_overview_in_the_prompt_and_the_budget(llm, workspace, monkeypatch):
    for key, value in provider_env(llm, "openai").items():
        monkeypatch.setenv(key, value)
    (workspace / "tax.py").write_text(
        "def rate(income):\n    return 0.2\n\n\ndef tax(income):\n    return income * rate(income)\n",
        encoding="utf-8",
    )
    opts = SessionOptions(workspace=workspace, provider="openai", overview_in_prompt=True)
    agent = create_agent(opts)
    before = agent.system_prompt.text
    overhead = agent.context.budget.overhead_tokens
    assert "## Code Map" not in before
    llm.reply("first")
    llm.reply("second")
    agent.run("where is the tax computed?")
    agent.run("and the rate?")

    first, second = (_system(r.body) for r in llm.requests)
    assert "## Code Map" in first and "tax.py" in first.split("## Code Map", 1)[1]
    assert second == first  # settled once: the prompt stays stable for the provider's cache
    assert agent.context.budget.overhead_tokens > overhead  # the budget counts the overview


def test_by_default_the_overview_is_on_demand_and_the_prompt_never_changes(
    llm, workspace, monkeypatch
):
    for key, value in provider_env(llm, "openai").items():
        monkeypatch.setenv(key, value)
    (workspace / "tax.py").write_text("def rate(income):\n    return 0.2\n", encoding="utf-8")
    agent = create_agent(SessionOptions(workspace=workspace, provider="openai"))
    before = agent.system_prompt.text
    llm.call("code_map", {"action": "overview", "name": "tax rate"})
    llm.reply("done")
    agent.run("where is the rate?")
    assert _system(llm.requests[0].body) == before and "## Code Map" not in before
    assert 'recall(id, lines="12-40")' in before  # the prompt teaches partial recall
    answer = next(m["content"] for m in llm.requests[1].body["messages"] if m["role"] == "tool")
    assert "tax.py" in answer and "rate" in answer  # the overview, when asked for


def test_without_the_code_map_the_prompt_never_changes(llm, workspace, monkeypatch):
    for key, value in provider_env(llm, "openai").items():
        monkeypatch.setenv(key, value)
    (workspace / "a.py").write_text("def f():\n    return 1\n", encoding="utf-8")
    agent = create_agent(SessionOptions(workspace=workspace, provider="openai", codemap=False))
    before = agent.system_prompt.text
    llm.reply("done")
    agent.run("hi")
    assert _system(llm.requests[0].body) == before and "## Code Map" not in before


LONG_COMMAND = "seq 1 1000 | sed 's/.*/row & of 1000/'"  # longer than the model is shown


def test_a_session_resumed_from_another_folder_recalls_what_it_archived(llm, workspace, tmp_path):
    """The full output lives only in the archive saved under the first folder's project."""
    env = provider_env(llm, "openai")
    llm.call("terminal", {"command": LONG_COMMAND})
    llm.reply("ran it")
    first = run_cli(
        *("--dir", str(workspace), "-p", "count", "--provider", "openai", "--no-codemap"),
        *("--output-format", "json"),
        env=env,
    )
    assert first.returncode == 0, first.stderr
    session_id = json.loads(first.stdout)["session_id"]
    shown = [m["content"] for m in llm.requests[1].body["messages"] if m["role"] == "tool"]
    assert "\nrow 500 of 1000\n" not in shown[0]  # the model saw it elided

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    llm.call("recall", {"id": "a1"})
    llm.reply("row 500 is there")
    again = run_cli(
        *("--dir", str(elsewhere), "-p", "row 500?", "--provider", "openai", "--no-codemap"),
        *("--resume", session_id),
        env=env,
    )
    assert again.returncode == 0, again.stderr
    recalled = [m["content"] for m in llm.requests[-1].body["messages"] if m["role"] == "tool"]
    assert recalled[-1].startswith("[#a1 terminal") and "\nrow 500 of 1000\n" in recalled[-1]


def test_tools_without_their_service_say_so(tmp_path):
    ctx = ToolContext(workspace=tmp_path, home=tmp_path / "home")
    reasons = Registry.default().availability(ctx)
    assert reasons["memory"] == "this session has no memory store"
    assert reasons["code_map"] == "this session has no code map"
    assert reasons["skill"] == "this session has no skills"
    out = Registry.default().execute("recall", {"id": "a1"}, ctx)
    assert out.is_error and "nothing is archived" in out.content
