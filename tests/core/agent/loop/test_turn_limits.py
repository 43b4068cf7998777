"""--max-turns bounds a task's sub-agents too, the -p JSON counts their requests and usage,
and a small window's overflow after compacting is retried while compacting helps; through the
real CLI and the scripted server."""

from __future__ import annotations

import json

from tests.conftest import provider_env, run_cli
from tests.helpers.fake_llm import llama_cpp_overflow
from ui.words.strings import Strings

USAGE = {"input": 100, "cache_read": 0, "cache_write": 0, "output": 7}


def run_json(llm, workspace, provider: str, *extra: str):
    proc = run_cli(
        "--dir", str(workspace), "-p", "look around", "--provider", provider,
        "--output-format", "json", "--yes", *extra, env=provider_env(llm, provider),
    )  # fmt: skip
    return proc, json.loads(proc.stdout.strip().splitlines()[-1])


def test_sub_agents_obey_max_turns_and_the_json_counts_their_requests(llm, workspace):
    (workspace / "a.py").write_text("x = 1\n")
    llm.call("task", {"prompt": "explore the project"}, usage=USAGE)
    for path in ("a.py", ".", "a.py"):  # the child's requests
        tool = "list_files" if path == "." else "read_file"
        llm.call(tool, {"path": path}, usage=USAGE)
    proc, out = run_json(llm, workspace, "openai", "--max-turns", "4")
    assert len(llm.requests) == 4, proc.stderr  # the child stopped at the task's 4th request
    assert out["stop"] == "max_turns" and out["num_turns"] == 4
    assert out["usage"]["output"] == 4 * 7 and out["usage"]["input"] == 4 * 100
    assert "sub-agents' turns included" in out["result"]


def test_without_sub_agents_the_counts_are_the_tasks_own(llm, workspace):
    (workspace / "a.py").write_text("x = 1\n")
    llm.call("read_file", {"path": "a.py"}, usage=USAGE).reply("x is 1", usage=USAGE)
    _, out = run_json(llm, workspace, "openai")
    assert out["stop"] == "done" and out["num_turns"] == 2 and out["usage"]["output"] == 14


def small_window(llm, workspace):
    (workspace / "big.py").write_text("".join(f"value_{i} = {i}\n" for i in range(300)))
    (workspace / "b.py").write_text("".join(f"other_{i} = {i}\n" for i in range(100)))
    llm.props = {"default_generation_settings": {"n_ctx": 2048}}


def test_an_overflow_after_compacting_and_nothing_left_to_shrink_stops_in_one_line(llm, workspace):
    small_window(llm, workspace)
    llm.call("read_file", {"path": "big.py"})
    llm.add(llama_cpp_overflow(3100, 2048), llama_cpp_overflow(2300, 2048))
    proc, out = run_json(llm, workspace, "openai-compatible")
    assert out["stop"] == "error" and len(llm.requests) == 3, proc.stderr  # one retry, compacted
    assert "[archived" in json.dumps(llm.requests[2].body["messages"])
    assert "still too long" in out["error"] and "/compact" not in out["error"]


def test_a_print_run_that_cannot_fit_is_not_told_to_compact(llm, workspace):
    small_window(llm, workspace)
    llm.add(llama_cpp_overflow(2300, 2048))  # the first request: nothing to compact
    proc, out = run_json(llm, workspace, "openai-compatible")
    assert out["stop"] == "error" and "still too long" in out["error"], proc.stderr
    assert "/compact" not in proc.stderr + proc.stdout and "/new" not in out["error"]
    assert "llama.cpp -c" in out["error"]


def test_the_stop_with_sub_agents_turns_is_said_whole_in_chinese():
    line = (
        "Stopped after 15 turns without a final answer (sub-agents' turns included) (raise "
        "--max-turns or ask me to continue)."
    )
    assert Strings("zh").line(line) == (
        "已运行 15 轮（含子代理的轮次）仍没有最终答复，已停止（可调大 --max-turns，或让我继续）"
    )
