"""Recover before stopping: a repeat is answered with what to do instead, a call that cannot
help gets that advice rather than its empty answer again, and a stop comes only when the advice
did not change the behaviour; through the real CLI and the scripted server."""

from __future__ import annotations

import json

from tests.conftest import provider_env, run_cli
from tests.helpers.fake_llm import Reply


def run_json(llm, workspace, provider: str = "openai-compatible", *extra: str):
    proc = run_cli(
        "--dir", str(workspace), "-p", "fix the failing test", "--provider", provider,
        "--output-format", "json", "--yes", *extra,
        env=provider_env(llm, provider),
    )  # fmt: skip
    return proc, json.loads(proc.stdout.strip().splitlines()[-1])


def results(request) -> list[str]:
    return [m["content"] for m in request.body["messages"] if m.get("role") == "tool"]


def project(workspace):
    (workspace / "price.py").write_text('def format_price(amount):\n    return "$%d" % amount\n')
    (workspace / "tests").mkdir()
    (workspace / "tests" / "test_price.py").write_text("from price import format_price\n")


def test_a_repeated_listing_names_the_files_to_read_and_the_model_recovers(llm, workspace):
    project(workspace)
    llm.call("list_files", {}).call("list_files", {})
    llm.call("read_file", {"path": "price.py"}).reply("read it")
    proc, out = run_json(llm, workspace)
    assert out["stop"] == "done", proc.stderr
    first, second = results(llm.requests[2])
    assert "Do this instead" not in first
    assert second.endswith(
        "Do this instead: you have this listing already: read_file one of price.py, "
        "tests/test_price.py, or run the tests with terminal (python -m pytest -q) to see "
        "what fails.]"
    )


def test_a_file_already_read_is_not_advised_again(llm, workspace):
    project(workspace)
    llm.call("read_file", {"path": "price.py"}).call("list_files", {}).call("list_files", {})
    llm.reply("ok")
    run_json(llm, workspace)
    assert "read_file one of tests/test_price.py, or run" in results(llm.requests[3])[-1]


def test_a_tool_that_cannot_help_is_answered_with_the_advice_not_its_error(llm, workspace):
    project(workspace)
    llm.call("skill", {"name": "fix"}).call("skill", {"name": "fix"}).reply("ok")
    proc, out = run_json(llm, workspace)
    assert out["stop"] == "done", proc.stderr
    first, second = results(llm.requests[2])
    assert first.startswith("unknown tool 'skill'; available: edit_file, list_files")
    assert second.startswith("unknown tool 'skill'")
    assert second.endswith(
        "Do this instead: skill is not a tool here: use read_file, edit_file, terminal.]"
    )


def test_an_empty_search_repeated_points_elsewhere(llm, workspace):
    project(workspace)
    for _ in range(2):
        llm.call("search_files", {"pattern": "zzz_nothing"})
    llm.reply("ok")
    run_json(llm, workspace)
    second = results(llm.requests[2])[1]
    assert second.startswith("no matches\n[unicum: this is call #2")
    assert (
        "search_files has nothing for this task; use read_file, list_files, edit_file, terminal"
        in second
    )


def test_a_repeated_read_is_shown_once_with_the_advice(llm, workspace):
    (workspace / "big.py").write_text("".join(f"x{i} = {i}\n" for i in range(300)))
    llm.call("read_file", {"path": "big.py"}).call("read_file", {"path": "big.py"}).reply("ok")
    run_json(llm, workspace)
    first, second = results(llm.requests[2])
    assert (first + second).count("x299 = 299") == 1  # the context policy shows it once
    assert second.endswith(
        "Do this instead: you have read big.py already: change it with edit_file, or run the "
        "tests with terminal (python -m pytest -q) to see what fails.]"
    )


def test_stopped_only_after_the_advice_did_not_change_the_behaviour(llm, workspace):
    project(workspace)
    for _ in range(5):
        llm.call("list_files", {})
    proc, out = run_json(llm, workspace)
    assert out["stop"] == "repeated" and len(llm.requests) == 5
    last = results(llm.requests[4])[-1]  # advised at the 2nd, 3rd and 4th call
    assert "this is call #4 of this same call" in last and "Do this instead" in last
    assert out["result"].startswith(
        "Stopped: the model made the same list_files call with the same result 5 times (the "
        "advice to you have this listing already: read_file one of price.py"
    )


CODE_ONLY = "Change it to:\n```python\ndef format_price(amount):\n    return f'${amount:.2f}'\n```"


def test_a_small_model_that_shows_code_but_changes_nothing_is_sent_back_once(llm, workspace):
    project(workspace)
    llm.reply(CODE_ONLY)
    llm.call("edit_file", {"path": "price.py", "old_string": '"$%d" % amount',
                           "new_string": 'f"${amount:.2f}"'})  # fmt: skip
    llm.reply("Fixed.")
    proc, out = run_json(llm, workspace)
    assert out["stop"] == "done" and out["result"] == "Fixed.", proc.stderr
    nudge = llm.requests[1].body["messages"][-1]
    assert nudge["role"] == "user" and "used no tool, so nothing in the project changed" in str(
        nudge["content"]
    )
    assert "{amount:.2f}" in (workspace / "price.py").read_text()


def test_the_nudge_comes_once_and_not_for_the_full_set(llm, workspace):
    project(workspace)
    llm.reply(CODE_ONLY).reply(CODE_ONLY)
    _, out = run_json(llm, workspace)
    assert out["stop"] == "done" and out["result"] == CODE_ONLY and len(llm.requests) == 2
    llm.reply(CODE_ONLY)
    _, out = run_json(llm, workspace, "openai")
    assert out["result"] == CODE_ONLY and len(llm.requests) == 3


def test_one_reply_with_the_same_call_many_times_is_advised_not_stopped(llm, workspace):
    project(workspace)
    llm.add(Reply(tool_calls=[("pytest", {"command": "python -m pytest -q"})] * 6))
    llm.reply("I will use terminal.")
    proc, out = run_json(llm, workspace)
    assert out["stop"] == "done" and out["result"] == "I will use terminal.", proc.stderr
    assert results(llm.requests[1])[-1].endswith(
        "Do this instead: pytest is not a tool here: use read_file, edit_file, terminal.]"
    )
