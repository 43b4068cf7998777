"""The REPL and `-p` wired to the merged modules: resume + recall, memory, /context, --time."""

from __future__ import annotations

import json
import re

from tests.conftest import provider_env, run_cli
from tests.helpers.fake_llm import HttpError, Reply
from tests.helpers.repl_driver import Repl, start_repl

LONG_COMMAND = "seq 1 1000 | sed 's/.*/row & 第 & 行/'"  # longer than the model is shown


def start(llm, workspace, *extra: str, provider: str = "openai") -> Repl:
    return start_repl(llm, workspace, "--no-codemap", *extra, provider=provider)


def tool_results(body: dict) -> list[str]:
    """The tool results in an OpenAI-wire request, in order."""
    return [m["content"] for m in body["messages"] if m["role"] == "tool"]


def test_continue_keeps_recall_of_outputs_archived_before_exit(llm, workspace, isolated_home):
    llm.call("terminal", {"command": LONG_COMMAND})
    llm.reply("read it")
    first = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "count",
        "--provider",
        "openai",
        "--no-codemap",
        "--output-format",
        "json",
        env=provider_env(llm, "openai"),
    )
    assert first.returncode == 0, first.stderr
    session_id = json.loads(first.stdout)["session_id"]
    archives = list(isolated_home.glob("projects/*/archives/*.jsonl"))
    assert [p.stem for p in archives] == [session_id]
    assert "\nrow 500 第 500 行\n" not in tool_results(llm.requests[1].body)[0]  # elided on screen

    llm.call("recall", {"id": "a1"})
    llm.reply("line 299 is there")
    repl = start(llm, workspace, "--continue")
    try:
        repl.send("what was on the last line?")
        repl.expect("line 299 is there")
        repl.prompt()
        repl.command("/context", r"archived outputs \(recall\)\s+2\b")  # a1 and the recall
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    recalled = tool_results(llm.requests[3].body)[-1]
    assert recalled.startswith(f"[#a1 terminal {LONG_COMMAND}]")
    assert (
        "\nrow 500 第 500 行\n" in recalled and "row 1000 第 1000 行" in recalled
    )  # the full output
    assert list(isolated_home.glob("projects/*/archives/*.jsonl")) == archives  # same archive


def test_new_reloads_memory_and_memory_lists_instruction_files(llm, workspace):
    (workspace / "AGENTS.md").write_text("Use tabs.\n", encoding="utf-8")
    llm.call(
        "memory", {"action": "add", "type": "commands", "content": "run the tests with pytest -q"}
    )
    llm.reply("noted")
    llm.reply("fresh")
    repl = start(llm, workspace)
    try:
        repl.send("remember how to run the tests")
        repl.expect("noted")
        repl.prompt()
        repl.command("/memory", r"run the tests with pytest -q")
        assert re.search(r"instruction files: AGENTS\.md", repl.text)
        repl.command("/new", r"new session \S+")
        repl.send("hello")
        repl.expect("fresh")
        repl.prompt()
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    system_before = llm.requests[0].body["messages"][0]["content"]
    system_after = llm.requests[2].body["messages"][0]["content"]
    assert "Use tabs." in system_before and "Use tabs." in system_after
    assert "pytest -q" not in system_before and "run the tests with pytest -q" in system_after


def test_print_mode_time_goes_to_stderr_and_retries_read_as_words(llm, workspace):
    llm.add(HttpError(529, "overloaded", headers={"retry-after": "0"}), Reply("the answer"))
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "hi",
        "--provider",
        "openai",
        "--time",
        "--lang",
        "zh",
        env=provider_env(llm, "openai"),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "the answer\n"  # timings never mix into the answer
    assert "服务器过载：0 秒后第 1 次重试" in proc.stderr
    assert re.search(r"请求 1：首字 [\d.]+s，总计 [\d.]+ 秒", proc.stderr)
    assert re.search(r"1 次请求 · 0 次工具调用 · 共 [\d.]+ 秒", proc.stderr)


def test_usage_tasks_model_switch_and_one_line_per_retry(llm, workspace):
    llm.add(HttpError(529, "overloaded", headers={"retry-after": "2"}))
    llm.reply("one", usage={"input": 1000, "cache_read": 0, "cache_write": 0, "output": 10})
    llm.reply("two", usage={"input": 100, "cache_read": 900, "cache_write": 0, "output": 20})
    repl = start(llm, workspace)
    try:
        repl.send("first")
        repl.expect("one")
        repl.prompt()
        assert repl.text.count("the server is overloaded: retry 1 in") == 1  # not one per second
        repl.command("/model gpt-other", r"model set to gpt-other")
        repl.send("second")
        repl.expect("two")
        repl.prompt()
        repl.send("/usage")
        repl.expect(r"requests\s+2\b")
        repl.expect(r"cache hit rate\s+45%")
        repl.prompt()
        repl.command("/usage tasks", r"total\s+│?\s*2\b")
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    assert llm.requests[2].body["model"] == "gpt-other"  # after the retried first one


def test_resume_by_id_from_another_folder_still_recalls(llm, workspace, tmp_path):
    llm.call("terminal", {"command": LONG_COMMAND})
    llm.reply("read it")
    llm.call("recall", {"id": "a1"})
    llm.reply("recalled")
    env = provider_env(llm, "openai")
    first = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "count",
        "--provider",
        "openai",
        "--no-codemap",
        "--output-format",
        "json",
        env=env,
    )
    assert first.returncode == 0, first.stderr
    session_id = json.loads(first.stdout)["session_id"]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    second = run_cli(
        "--dir",
        str(elsewhere),
        "-p",
        "the last line again?",
        "--provider",
        "openai",
        "--no-codemap",
        "--resume",
        session_id,
        env=env,
    )
    assert second.returncode == 0, second.stderr
    recalled = tool_results(llm.requests[3].body)[-1]
    assert recalled.startswith("[#a1 terminal") and "\nrow 500 第 500 行\n" in recalled
