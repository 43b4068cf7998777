"""Failures inside the loop leave a valid history; hooks fan out to every listener."""

from __future__ import annotations

import inspect
import threading

import pytest

from core.agent import AgentHooks, HookList, SessionOptions, TaskResult, create_agent
from tests.conftest import provider_env


class FailingToolEnd(AgentHooks):
    """A listener that breaks once, while the first tool's result is being reported."""

    def __init__(self) -> None:
        self.failed = False

    def on_tool_end(self, call, output, seconds) -> None:
        if not self.failed:
            self.failed = True
            raise RuntimeError("listener broke")


def test_a_hook_failing_during_tools_leaves_every_call_answered(llm, workspace, monkeypatch):
    for key, value in provider_env(llm, "openai").items():
        monkeypatch.setenv(key, value)
    (workspace / "a.txt").write_text("alpha\n", encoding="utf-8")
    agent = create_agent(
        SessionOptions(workspace=workspace, provider="openai", codemap=False),
        hooks=FailingToolEnd(),
    )
    llm.call("read_file", {"path": "a.txt"})
    with pytest.raises(RuntimeError, match="listener broke"):
        agent.run("read a.txt")
    llm.reply("fine now")
    assert agent.run("again").text == "fine now"

    messages = llm.requests[-1].body["messages"]
    asked = [c["id"] for m in messages for c in m.get("tool_calls") or []]
    answered = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    assert asked and answered == asked
    result = next(m for m in messages if m["role"] == "tool")
    assert "listener broke" in result["content"]


class Recorder(AgentHooks):
    def __init__(self, log: list[str], name: str, fail_on: str = "") -> None:
        self.log, self.name, self.fail_on = log, name, fail_on

    def _hear(self, event: str) -> None:
        self.log.append(f"{self.name}:{event}")
        if event == self.fail_on:
            raise ValueError(f"{self.name} failed on {event}")

    def on_task_end(self, result: TaskResult) -> None:
        self._hear("task_end")

    def before_request(self, turn: int) -> None:
        self._hear("before_request")

    def on_budget_warning(self, warning) -> None:
        self._hear("budget_warning")


def test_hooklist_fans_out_every_agenthooks_method():
    public = {
        n for n, _ in inspect.getmembers(AgentHooks, inspect.isfunction) if not n.startswith("_")
    }
    assert public >= {"on_task_end", "on_budget_warning", "before_request"}
    missing = [n for n in public if n not in HookList.__dict__]
    assert not missing, f"HookList does not fan out {missing}"


def test_hooklist_tells_everyone_the_task_ended_then_reraises():
    log: list[str] = []
    hooks = HookList([Recorder(log, "a", fail_on="task_end"), Recorder(log, "b")])
    with pytest.raises(ValueError, match="a failed"):
        hooks.on_task_end(TaskResult(text=""))
    assert log == ["a:task_end", "b:task_end"]
    hooks.on_budget_warning(object())
    assert log[-2:] == ["a:budget_warning", "b:budget_warning"]


def test_hooklist_gate_stops_at_the_first_raise():
    log: list[str] = []
    hooks = HookList([Recorder(log, "a", fail_on="before_request"), Recorder(log, "b")])
    with pytest.raises(ValueError):
        hooks.before_request(1)
    assert log == ["a:before_request"]
    with pytest.raises(AttributeError):
        hooks.on_tool_strat  # noqa: B018 - a misspelled event fails at once


def test_sdk_client_is_built_once_across_threads(llm, monkeypatch):
    from core.model import ModelClient, resolve_provider

    for key, value in provider_env(llm, "openai").items():
        monkeypatch.setenv(key, value)
    client = ModelClient(resolve_provider("openai"))
    barrier = threading.Barrier(8)
    built: list[object] = []

    def build() -> None:
        barrier.wait()
        built.append(client.sdk())

    threads = [threading.Thread(target=build) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len({id(sdk) for sdk in built}) == 1


# --- prices: a dated name is its model; a sibling is not ----------------------------------
def test_prices_strip_dates_but_never_borrow_a_siblings_price(isolated_home):
    from core.ledger import load_prices
    from my_agent.messages import Usage

    table = load_prices(isolated_home)
    four_o, mini = table.find("gpt-4o"), table.find("gpt-4o-mini")
    assert (mini.input, mini.cache_read, mini.output) == (0.15, 0.075, 0.60)
    assert mini.source and mini.date
    assert table.find("gpt-4o-2024-08-06") is four_o
    assert table.find("gpt-4o-mini-2024-07-18") is mini
    assert table.find("claude-sonnet-4-6-20260101") is table.find("claude-sonnet-4-6")
    assert table.find("deepseek-reasoner").output == table.find("deepseek-chat").output
    for unknown in ("gpt-4o-audio-preview", "glm-5.1-air", "deepseek-chat-v9"):
        assert table.find(unknown) is None, unknown
        assert table.cost(Usage(input=1000, output=1000), unknown) is None
