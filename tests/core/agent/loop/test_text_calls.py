"""Tool calls a small model writes as text under a stock chat template are run, not taken as
the final answer; the notice names the fix the server really needs. Through the real CLI."""

from __future__ import annotations

import json

from tests.conftest import provider_env, run_cli

READ = '{"name": "read_file", "arguments": {"path": "a.py"}}'
LIST = '{"name": "list_files", "arguments": {}}'


def run_json(llm, workspace):
    proc = run_cli(
        "--dir", str(workspace), "-p", "look at a.py", "--provider", "openai-compatible",
        "--output-format", "json", "--yes", env=provider_env(llm, "openai-compatible"),
    )  # fmt: skip
    return proc, json.loads(proc.stdout.strip().splitlines()[-1])


def tool_texts(request) -> list[str]:
    return [m["content"] for m in request.body["messages"] if m["role"] == "tool"]


def test_a_tools_wrapper_with_calls_one_a_line_runs_every_call(llm, workspace):
    (workspace / "a.py").write_text("x = 1\n")
    llm.reply(f"<tools>\n{READ}\n{LIST}\n</tools>").reply("x is 1")
    proc, out = run_json(llm, workspace)
    assert out["stop"] == "done" and out["result"] == "x is 1", proc.stderr
    read, listing = tool_texts(llm.requests[1])
    assert "x = 1" in read and "a.py" in listing


def test_a_fenced_call_followed_by_prose_is_run_and_the_prose_kept(llm, workspace):
    (workspace / "a.py").write_text("x = 1\n")
    llm.reply(f"```json\n{READ}\n```\nThis reads the file so I can see x.").reply("x is 1")
    proc, out = run_json(llm, workspace)
    assert out["stop"] == "done" and out["result"] == "x is 1", proc.stderr
    [said] = [m for m in llm.requests[1].body["messages"] if m["role"] == "assistant"]
    assert said["content"] == "This reads the file so I can see x."
    assert said["tool_calls"][0]["function"]["name"] == "read_file"
    assert "x = 1" in tool_texts(llm.requests[1])[0]


def test_a_code_fence_in_an_answer_stays_an_answer(llm, workspace):
    answer = 'Use this:\n```python\nprint({"name": 1})\n```'
    llm.reply(answer).reply(answer)  # the lean set's model is asked once to act on its code
    proc, out = run_json(llm, workspace)
    assert out["stop"] == "done" and out["result"].startswith("Use this:"), proc.stderr
    assert len(llm.requests) == 2


def test_a_llama_cpp_server_that_took_the_tools_is_not_told_to_add_jinja(llm, workspace):
    llm.props = {"default_generation_settings": {"n_ctx": 16384}}  # llama-server's /props
    (workspace / "a.py").write_text("x = 1\n")
    llm.reply(f"<tool_call>\n{READ}\n</tool_call>").reply("x is 1")
    proc, _ = run_json(llm, workspace)
    assert "--jinja" not in proc.stderr
    assert "its chat template does not parse the calls this model writes" in proc.stderr
    assert "--chat-template-file" in proc.stderr


def test_a_call_with_raw_newlines_and_a_lone_backslash_in_its_strings_is_run(llm, workspace):
    (workspace / "a.py").write_text("import re\nDIGITS = None\n")
    call = (
        '<tools>\n{"name": "edit_file", "arguments": {"path": "a.py", "old_string": '
        '"DIGITS = None", "new_string": "DIGITS = re.compile(r\'\\d+\')\nSPACE = \'\\\\s\'"}}\n'
        "</tools>"
    )  # a raw newline inside the string; \d is no JSON escape, \\s is one
    llm.reply(call).reply("Done.")
    proc, out = run_json(llm, workspace)
    assert out["result"] == "Done.", proc.stderr
    assert (workspace / "a.py").read_text() == (
        "import re\nDIGITS = re.compile(r'\\d+')\nSPACE = '\\s'\n"
    )
