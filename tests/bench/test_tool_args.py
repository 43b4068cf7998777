"""bench/tool_args.py scores each tool call a real model makes against what its prompt asked,
in both wire forms of the tool texts; here the model is the scripted loopback server."""

from __future__ import annotations

import json

from bench.tool_args import CASES, main

RIGHT = {
    "read_file": {"path": "src/app.py", "offset": 20, "limit": 20},
    "terminal": {"command": "pytest -q tests/test_math.py"},
    "edit_file": {"path": "utils.py", "old_string": "return a - b", "new_string": "return a + b"},
    "write_file": {"path": "notes.txt", "content": "hello world"},
    "search_files": {"pattern": "def parse_\\w+", "path": "src"},
    "recall": {"id": "a7", "lines": "12-40"},
    "code_map": {"action": "references", "name": "parse_config"},
    "todo": {
        "todos": [
            {"content": "write tests", "status": "done"},
            {"content": "fix the bug", "status": "in_progress"},
        ]
    },
    "list_files": {"path": "src", "pattern": "**/*.py"},
    "memory": {"action": "add", "content": "the tests run with make test"},
    "web_search": {"query": "httpx timeout retries", "max_results": 3},
}


def test_each_form_is_scored_by_the_arguments_the_prompt_asked_for(llm, capsys):
    for case in CASES:  # brief: every call right
        llm.call(case.tool, RIGHT[case.tool])
    for case in CASES:  # full: one off by one, one written as text, one answer, one invalid
        if case.tool == "read_file":
            llm.call("read_file", {"path": "src/app.py", "offset": 20, "limit": 39})
        elif case.tool == "terminal":
            call = json.dumps({"name": "terminal", "arguments": RIGHT["terminal"]})
            llm.reply(f"<tool_call>\n{call}\n</tool_call>")
        elif case.tool == "recall":
            llm.reply("I cannot see a7.")
        elif case.tool == "code_map":
            llm.call("code_map", {"action": "callers", "name": "parse_config"})
        else:
            llm.call(case.tool, RIGHT[case.tool])
    assert main(["--base-url", llm.openai_url, "--model", "m"]) == 0
    out = capsys.readouterr().out
    assert f"brief: {len(CASES)}/{len(CASES)} right" in out
    assert f"full: {len(CASES) - 3}/{len(CASES)} right" in out
    assert "wrong-args" in out and "no-call" in out and "invalid" in out
    brief, full = llm.requests[0].body, llm.requests[len(CASES)].body
    assert brief["temperature"] == 0 and not brief["stream"]
    read = {t["function"]["name"]: t["function"] for t in brief["tools"]}["read_file"]
    assert read["parameters"] == {"type": "object"} and "Args: path: str" in read["description"]
    read = {t["function"]["name"]: t["function"] for t in full["tools"]}["read_file"]
    assert "offset" in read["parameters"]["properties"] and "Args:" not in read["description"]
