"""Ctrl-C while a sub-agent streams, in the real REPL: the child stops, the parent's `task` call
gets a result (interrupted, with the child's last finished words), the parent's task ends as
interrupted, the next task's request is a valid history, and the child's ledger rows (the cut
request too) sit under the parent's task."""

from __future__ import annotations

import json

import pytest

from tests.core.ledger.test_ledger import ledger_rows
from tests.helpers.fake_llm import Reply
from tests.helpers.repl_driver import start_repl, user_texts, wait_for_stream
from tests.ui.commands.test_snapshots_cli import _tool_pairs_ok

SECRET = "CHILD-ONLY-51c2"
FOUND = "Found tax.py; checking the rate next."


def results_of(body: dict) -> list[str]:
    """Tool results in a request, either wire."""
    found = []
    for msg in body["messages"]:
        if msg["role"] == "tool":
            found.append(msg["content"])
        elif isinstance(msg["content"], list):
            found += [
                b["content"] if isinstance(b["content"], str) else json.dumps(b["content"])
                for b in msg["content"]
                if b.get("type") == "tool_result"
            ]
    return found


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_ctrl_c_stops_the_child_and_the_parent_history_stays_valid(
    llm, workspace, isolated_home, provider
):
    (workspace / "tax.py").write_text(f"# {SECRET}\nRATE = 0.2\n")
    llm.call("task", {"prompt": "find the tax rate", "description": "find rate"})
    llm.call("read_file", {"path": "tax.py"}, text=FOUND)  # the child's first step
    llm.add(Reply(text="still looking " * 400, chunk_size=4, delay=0.05))  # the child, slow
    llm.reply("fine, stopped.")  # the parent, next task
    repl = start_repl(llm, workspace, provider=provider)
    try:
        repl.send("where is the rate?")
        wait_for_stream(llm, 3)
        repl.child.sendintr()
        repl.expect(r"interrupted — the sub-agent was stopped; its partial report went to")
        repl.prompt()
        repl.send("what now?")
        repl.expect("fine, stopped.")
        repl.prompt()
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    assert len(llm.requests) == 4 and llm.requests[2].aborted  # the child's stream was cut
    last = llm.requests[3].body
    assert _tool_pairs_ok(last)  # every tool call has its result
    assert user_texts(last)[0] == "where is the rate?" and user_texts(last)[-1] == "what now?"
    results = results_of(last)
    assert len(results) == 1
    assert results[0].startswith(
        "[sub-agent interrupted by the user after 1 finished request(s) and 1 tool call(s)"
    )
    assert FOUND in results[0]  # the child's last finished words
    assert "still looking" not in json.dumps(last) and SECRET not in json.dumps(last)

    rows = ledger_rows(isolated_home)
    assert len(rows) == 4
    parent, child, cut, nxt = rows
    assert parent["task_id"] == child["task_id"] == cut["task_id"] != nxt["task_id"]
    assert cut["stop_reason"] == "interrupted" and cut["estimated"] == 1
    assert cut["output_tokens"] > 0  # what streamed before Ctrl-C is counted


def test_a_sub_agent_stopped_in_chinese(llm, workspace):
    llm.call("task", {"prompt": "look around", "description": "look"})
    llm.add(Reply(text="still looking " * 400, chunk_size=4, delay=0.05))
    repl = start_repl(llm, workspace, "--lang", "zh")
    try:
        repl.send("看看代码")
        wait_for_stream(llm, 2)
        repl.child.sendintr()
        repl.expect("已中断，子代理已停止；它的部分报告已交给模型")
        repl.prompt()
    finally:
        repl.close()
