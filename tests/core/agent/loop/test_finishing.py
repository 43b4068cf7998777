"""Finishing tasks with real models: the loop guard, true stop reasons, tool calls written as
text, a small window that compacts; through the real CLI, SDKs and the scripted server."""

from __future__ import annotations

import json
import re

import pytest

from core.agent.records.transcript import last_stop, sessions_dir
from tests.conftest import provider_env, run_cli
from tests.helpers.fake_llm import HttpError, Reply, llama_cpp_overflow


def run_json(llm, workspace, provider: str = "openai", *extra: str, env: dict | None = None):
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "look at a.py",
        "--provider",
        provider,
        "--output-format",
        "json",
        *extra,
        env={**provider_env(llm, provider), **(env or {})},
    )
    out = json.loads(proc.stdout.strip().splitlines()[-1]) if proc.stdout.strip() else {}
    return proc, out


def tool_texts(body: dict) -> list[str]:
    return [m["content"] for m in body["messages"] if m.get("role") == "tool"]


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_model_repeating_a_call_is_told_then_stopped_repeated(provider, llm, workspace):
    (workspace / "a.py").write_text("x = 1\n")
    for _ in range(5):
        llm.call("read_file", {"path": "a.py"})
    proc, out = run_json(llm, workspace, provider)
    assert proc.returncode == 1, proc.stderr
    assert out["stop"] == "repeated" and out["is_error"] is True
    assert "same read_file call with the same result 5 times" in out["result"]
    assert len(llm.requests) == 5  # no sixth request
    third = json.dumps(llm.requests[3].body)  # carries the third result
    assert "call #3 of this same call" in third and "call #3" not in json.dumps(
        llm.requests[2].body
    )
    [transcript] = sessions_dir_files(workspace)
    assert last_stop(transcript) == "repeated"


def sessions_dir_files(workspace):
    import os
    from pathlib import Path

    return sorted(sessions_dir(Path(os.environ["UNICUM_HOME"]), workspace).glob("*.jsonl"))


def test_near_repeats_count_a_read_past_the_end_with_new_offsets(llm, workspace):
    (workspace / "a.py").write_text("x = 1\n")
    for offset in (10, 20, 30, 40, 50):
        llm.call("read_file", {"path": "a.py", "offset": offset})
    proc, out = run_json(llm, workspace)
    assert out["stop"] == "repeated" and len(llm.requests) == 5


def test_a_changing_result_is_not_a_repeat(llm, workspace):
    for i in range(5):
        llm.call("write_file", {"path": "a.py", "content": f"x = {i}\n"})
        llm.call("read_file", {"path": "a.py"})
    llm.reply("done")
    proc, out = run_json(llm, workspace, "openai", "--yes")
    assert proc.returncode == 0, proc.stderr
    assert out["stop"] == "done" and out["result"] == "done"


@pytest.mark.parametrize(
    "reply",
    [
        '```json\n{"name": "write_file", "arguments": {"path": "a.py", "content": "x = 2\\n"}}\n```',
        '<tool_call>\n{"name": "write_file", "arguments": {"path": "a.py", "content": "x = 2\\n"}}'
        "\n</tool_call>",
        '{"name": "write_file", "parameters": {"path": "a.py", "content": "x = 2\\n"}}',
    ],
)
def test_a_tool_call_written_as_text_is_run_and_the_fix_named_once(reply, llm, workspace):
    llm.reply(reply)
    llm.reply('{"name": "read_file", "arguments": {"path": "a.py"}}')
    llm.reply("Wrote a.py.")
    proc, out = run_json(llm, workspace, "openai-compatible", "--yes")
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "a.py").read_text() == "x = 2\n"
    assert out["result"] == "Wrote a.py." and out["stop"] == "done"
    assert proc.stderr.count("does not parse tool calls") == 1 and "--jinja" in proc.stderr
    assert "x = 2" in tool_texts(llm.requests[2].body)[-1]


def test_calls_a_server_sends_without_ids_get_ids_of_their_own(llm, workspace):
    """Each call needs an id no other call in the session has: the context policy keeps what
    it decided about an output by it."""
    (workspace / "a.py").write_text("x = 1\n")
    for _ in range(3):
        llm.add(Reply(tool_calls=[("read_file", {"path": "a.py"})], omit_call_ids=True))
    llm.reply("read it")
    proc, out = run_json(llm, workspace, "openai-compatible", "--yes")
    assert proc.returncode == 0, proc.stderr
    messages = llm.requests[-1].body["messages"]
    ids = [m["tool_call_id"] for m in messages if m["role"] == "tool"]
    calls = [c["id"] for m in messages for c in m.get("tool_calls") or []]
    assert len(ids) == 3 and len(set(ids)) == 3 and ids == calls


def test_a_text_call_of_an_unknown_tool_is_answered_with_the_tools_and_the_task_goes_on(
    llm, workspace
):
    llm.reply('```json\n{"name": "create_file", "arguments": {"path": "a.py"}}\n```')
    llm.reply("I cannot create it.")
    proc, out = run_json(llm, workspace, "openai-compatible")
    assert proc.returncode == 0 and out["stop"] == "done", proc.stderr
    [answer] = tool_texts(llm.requests[1].body)
    assert answer.startswith("unknown tool 'create_file'; available: edit_file, list_files")


def test_json_in_an_answer_stays_an_answer(llm, workspace):
    llm.reply('The config is {"name": "demo", "version": 2}.')
    proc, out = run_json(llm, workspace, "openai-compatible")
    assert proc.returncode == 0 and out["stop"] == "done"


def test_a_failed_request_stops_with_error(llm, workspace):
    llm.add(HttpError(401, "bad key"))
    proc, out = run_json(llm, workspace)
    assert proc.returncode == 1 and out["stop"] == "error" and out["is_error"] is True


def test_a_budget_stop_says_budget(llm, workspace):
    (workspace / "a.py").write_text("x = 1\n")
    llm.call("read_file", {"path": "a.py"}, usage={"input": 5000, "output": 10})
    proc, out = run_json(llm, workspace, "openai", "--budget-tokens", "1000")
    assert proc.returncode == 1 and out["stop"] == "budget"


def test_a_2048_token_window_compacts_instead_of_dying(llm, workspace):
    """llama.cpp says n_ctx 2048; the request after a long read overflows; the agent
    compacts (the read becomes an archived fact, recallable) and retries once; the task ends
    with an answer."""
    (workspace / "big.py").write_text("".join(f"value_{i} = {i}\n" for i in range(300)))
    llm.props = {"default_generation_settings": {"n_ctx": 2048}}
    llm.call("read_file", {"path": "big.py"})
    llm.add(llama_cpp_overflow(3100, 2048))
    llm.reply("big.py assigns 300 values.")
    proc, out = run_json(llm, workspace, "openai-compatible")
    assert proc.returncode == 0, proc.stderr
    assert out["result"] == "big.py assigns 300 values." and out["stop"] == "done"
    bodies = [r.body for r in llm.requests]
    assert len(bodies) == 3 and "value_299" in tool_texts(bodies[1])[-1]
    retried = tool_texts(bodies[2])[-1]
    assert "[archived" in retried and "value_299" not in retried  # the retry is compacted
    assert len(json.dumps(bodies[2])) < len(json.dumps(bodies[1]))
    assert all(b["max_tokens"] < 2048 for b in bodies)  # capped to the window


def test_still_too_long_after_compacting_is_one_line_with_the_fix(llm, workspace):
    (workspace / "big.py").write_text("".join(f"value_{i} = {i}\n" for i in range(300)))
    llm.props = {"default_generation_settings": {"n_ctx": 2048}}
    llm.call("read_file", {"path": "big.py"})
    llm.add(llama_cpp_overflow(3100, 2048))
    llm.add(llama_cpp_overflow(2900, 2048))
    proc, out = run_json(llm, workspace, "openai-compatible")
    assert proc.returncode == 1 and out["stop"] == "error"
    assert "still too long" in out["error"] and "llama.cpp -c" in out["error"]


def test_time_counts_the_start_of_a_task_too(llm, workspace):
    """The first task waits for the code map: that wait is inside the total (as "start")."""
    for i in range(30):
        (workspace / f"m{i}.py").write_text(f"def f{i}():\n    return {i}\n")
    llm.reply("the answer")
    proc, out = run_json(llm, workspace, "openai", "--time")
    assert proc.returncode == 0, proc.stderr
    found = re.search(
        r"= model ([\d.]+)s \+ tools ([\d.]+)s \+ Unicum ([\d.]+)s \(start ([\d.]+)s", proc.stderr
    )
    total = re.search(r"· ([\d.]+)s = model", proc.stderr)
    assert found and total, proc.stderr
    model, tools, own, start = map(float, found.groups())
    assert own >= start >= 0 and abs(float(total.group(1)) - (model + tools + own)) < 0.03


def test_a_resumed_session_recaps_how_its_last_task_ended(llm, workspace):
    from tests.helpers.repl_driver import Repl

    (workspace / "a.py").write_text("x = 1\n")
    for _ in range(5):
        llm.call("read_file", {"path": "a.py"})
    proc, out = run_json(llm, workspace)
    assert out["stop"] == "repeated"
    repl = Repl(
        "--dir", str(workspace), "--provider", "openai", "--no-codemap", "--continue",
        env=provider_env(llm, "openai"),
    )  # fmt: skip
    try:
        repl.expect("the last task ended: repeated")
        repl.prompt()
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
