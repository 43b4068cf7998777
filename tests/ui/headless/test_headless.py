"""`-p` as scripts and CI use it: stdin, stream-json events in and out, cost, tool choice."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import ROOT, provider_env, run_cli

USAGE = {"input": 1000, "cache_read": 0, "cache_write": 0, "output": 100}


def cli(*args: str, env: dict, stdin: str | None = None, cwd=None):
    """`python cli.py ARGS` with `stdin` piped in (None: no stdin at all)."""
    return subprocess.run(
        [sys.executable, str(ROOT / "cli.py"), *args],
        input=stdin if stdin is not None else "",
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=cwd,
        timeout=60,
    )


def events(stdout: str) -> list[dict]:
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def last_user_text(body: dict) -> str:
    content = body["messages"][-1]["content"]
    return content if isinstance(content, str) else content[-1]["text"]


def test_piped_stdin_joins_the_task(llm, workspace):
    llm.reply("it is a log")
    proc = cli(
        "--dir", str(workspace), "--provider", "openai", "-p", "explain",
        env=provider_env(llm, "openai"), stdin="ERROR disk full\n",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "it is a log"
    assert last_user_text(llm.requests[0].body) == "explain\n\nERROR disk full\n"


def test_dash_reads_the_task_from_stdin_and_no_p_with_a_pipe_runs_it(llm, workspace):
    llm.reply("one").reply("two")
    env = provider_env(llm, "anthropic")
    proc = cli(
        "--dir", str(workspace), "--provider", "anthropic", "-p", "-", env=env, stdin="say one"
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "one", proc.stderr
    proc = cli("--dir", str(workspace), "--provider", "anthropic", env=env, stdin="say two\n")
    assert proc.returncode == 0 and proc.stdout.strip() == "two", proc.stderr
    assert "stdin is not a terminal" in proc.stderr
    assert [last_user_text(r.body).strip() for r in llm.requests] == ["say one", "say two"]


def test_empty_stdin_task_is_exit_2(workspace, llm):
    proc = cli(
        "--dir", str(workspace), "--provider", "openai", "-p", "-", env=provider_env(llm, "openai")
    )
    assert proc.returncode == 2
    assert "-p needs a task" in proc.stderr


def test_stream_json_events_tool_call_result_and_cost(llm, workspace):
    (workspace / "notes.txt").write_text("alpha\n")
    llm.call("read_file", {"path": "notes.txt"}, text="Reading.", usage=USAGE)
    llm.reply("It says alpha.", usage=USAGE)
    proc = cli(
        "--dir", str(workspace), "--provider", "anthropic", "--model", "claude-sonnet-4-6",
        "-p", "what is in notes.txt?", "--output-format", "stream-json",
        env=provider_env(llm, "anthropic"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    got = events(proc.stdout)
    assert got[0]["type"] == "system" and got[0]["subtype"] == "init"
    assert "read_file" in got[0]["tools"] and got[0]["model"] == "claude-sonnet-4-6"
    kinds = [e["type"] for e in got]
    deltas = [e["event"]["delta"]["text"] for e in got if e["type"] == "stream_event"]
    assert "".join(deltas) == "Reading.It says alpha."
    assistants = [e["message"] for e in got if e["type"] == "assistant"]
    assert assistants[0]["content"][1] == {
        "type": "tool_use",
        "id": assistants[0]["content"][1]["id"],
        "name": "read_file",
        "input": {"path": "notes.txt"},
    }
    assert assistants[0]["usage"]["input_tokens"] == 1000
    tool_result = next(e for e in got if e["type"] == "user")["message"]["content"][0]
    assert tool_result["type"] == "tool_result" and "alpha" in tool_result["content"]
    assert tool_result["tool_use_id"] == assistants[0]["content"][1]["id"]
    assert kinds[-1] == "result"
    result = got[-1]
    assert result["subtype"] == "success" and result["is_error"] is False
    assert result["result"] == "It says alpha." and result["num_turns"] == 2
    # claude-sonnet-4-6: $3 in, $15 out per million: 2 × (1000 × 3 + 100 × 15) / 1e6
    assert result["total_cost_usd"] == pytest.approx(0.009)
    assert result["usage"]["output_tokens"] == 200
    assert {e["session_id"] for e in got} == {result["session_id"]}


def test_json_output_has_cost(llm, workspace):
    llm.reply("ok", usage=USAGE)
    proc = cli(
        "--dir", str(workspace), "--provider", "openai", "--model", "gpt-4o", "-p", "hi",
        "--output-format", "json", env=provider_env(llm, "openai"),
    )  # fmt: skip
    out = json.loads(proc.stdout)
    assert out["result"] == "ok" and out["type"] == "result" and out["total_cost_usd"] > 0


def test_stream_json_input_runs_each_user_message(llm, workspace):
    llm.reply("first answer").reply("second answer")
    lines = [
        {"type": "user", "message": {"role": "user", "content": "first question"}},
        {
            "type": "user",
            "message": {"role": "user", "content": [{"type": "text", "text": "second"}]},
        },
    ]
    proc = cli(
        "--dir", str(workspace), "--provider", "openai", "-p", "--input-format", "stream-json",
        "--output-format", "stream-json", env=provider_env(llm, "openai"),
        stdin="".join(json.dumps(line) + "\n" for line in lines),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    results = [e for e in events(proc.stdout) if e["type"] == "result"]
    assert [r["result"] for r in results] == ["first answer", "second answer"]
    second = llm.requests[1].body["messages"]
    assert [m["content"] for m in second if m["role"] == "user"] == ["first question", "second"]


def test_bad_stream_json_input_is_exit_2_with_an_error_event(workspace, llm):
    proc = cli(
        "--dir", str(workspace), "--provider", "openai", "-p", "--input-format", "stream-json",
        "--output-format", "stream-json", env=provider_env(llm, "openai"), stdin="not json\n",
    )  # fmt: skip
    assert proc.returncode == 2
    last = events(proc.stdout)[-1]
    assert last["type"] == "result" and last["is_error"] and "line 1 is not JSON" in last["error"]


def test_append_system_prompt_and_tool_choice(llm, workspace):
    llm.reply("ok")
    proc = cli(
        "--dir", str(workspace), "--provider", "anthropic", "-p", "hi",
        "--append-system-prompt", "Always answer in haiku.",
        "--tools", "read_file,search_files,terminal", "--allowed-tools", "terminal",
        "--disallowed-tools", "terminal", env=provider_env(llm, "anthropic"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    body = llm.requests[0].body
    assert "Always answer in haiku." in body["system"][0]["text"]
    assert sorted(t["name"] for t in body["tools"]) == ["read_file", "search_files"]


def test_unknown_tool_name_is_exit_2(workspace, llm):
    proc = cli(
        "--dir", str(workspace), "--provider", "openai", "-p", "hi",
        "--allowed-tools", "read_fil", env=provider_env(llm, "openai"),
    )  # fmt: skip
    assert proc.returncode == 2
    assert "unknown tool 'read_fil' (did you mean read_file?)" in proc.stderr


def test_max_budget_usd_stops_with_a_budget_result(llm, workspace):
    llm.call("read_file", {"path": "x"}, usage={**USAGE, "input": 100_000})
    proc = cli(
        "--dir", str(workspace), "--provider", "anthropic", "--model", "claude-sonnet-4-6",
        "-p", "hi", "--max-budget-usd", "0.2", "--output-format", "stream-json",
        env=provider_env(llm, "anthropic"),
    )  # fmt: skip
    assert proc.returncode == 1
    result = events(proc.stdout)[-1]
    assert result["subtype"] == "error_max_budget_usd" and result["is_error"]
    assert "budget reached" in result["error"]


def test_resume_unknown_id_is_one_line(workspace):
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "hi",
        "--provider",
        "openai",
        "--resume",
        "nope",
        env={"OPENAI_API_KEY": "fake-key-x"},
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "nope" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_print_continue_resumes_the_last_session(llm, workspace):
    llm.reply("first answer")
    llm.reply("second answer")
    env = provider_env(llm, "openai")
    first = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "first task",
        "--output-format",
        "json",
        "--provider",
        "openai",
        env=env,
    )
    assert first.returncode == 0, first.stderr
    second = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "second task",
        "--continue",
        "--output-format",
        "json",
        "--provider",
        "openai",
        env=env,
    )
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["session_id"] == json.loads(first.stdout)["session_id"]
    messages = llm.requests[1].body["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[2]["content"] == "first answer" and messages[3]["content"] == "second task"


@pytest.mark.parametrize(
    "provider,env,expected",
    [
        ("openai-compatible", {"UNICUM_MODEL": "gpt-4o"}, 0.0),  # a local server: $0
        ("openai", {}, 0.0035),  # gpt-4o at its price: 1000 × $2.50 + 100 × $10 per million
    ],
)
def test_json_cost_is_the_ledgers(llm, workspace, provider, env, expected):
    """`total_cost_usd` is what the ledger records for the task (one pricing), so a local
    server that happens to serve a priced model's name costs $0 in both."""
    llm.reply("ok", usage=USAGE)
    proc = cli(
        "--dir", str(workspace), "--provider", provider, "--model", "gpt-4o", "-p", "hi",
        "--output-format", "json", env={**provider_env(llm, provider), **env},
    )  # fmt: skip
    out = json.loads(proc.stdout)
    ledger = json.loads(cli("usage", "--by", "task", "--json", env={}).stdout)["groups"]
    assert [g["cost_usd"] for g in ledger] == [pytest.approx(out["total_cost_usd"])]
    assert out["total_cost_usd"] == pytest.approx(expected)
