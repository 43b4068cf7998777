"""A sub-agent you can watch: its tool lines indented under the parent's `task` line, its
calls and tokens on that line, and its requests in /usage."""

from __future__ import annotations

import re

from tests.helpers.repl_driver import start_repl

PARENT = {"input": 1000, "cache_read": 0, "cache_write": 0, "output": 20}
CHILD = {"input": 700, "cache_read": 0, "cache_write": 0, "output": 30}


def test_the_childs_tool_lines_sit_under_the_task_line_and_its_tokens_reach_usage(llm, workspace):
    (workspace / "notes.md").write_text("the port is 8080\n")
    task = {"prompt": "find the port", "description": "find the port"}
    llm.call("task", task, usage=PARENT)
    llm.call("read_file", {"path": "notes.md"}, usage=CHILD)  # the child
    llm.call("search_files", {"pattern": "port"}, usage=CHILD)
    llm.reply("port 8080 (notes.md:1)", usage=CHILD)  # the child's report
    llm.reply("It listens on 8080.", usage=PARENT)
    repl = start_repl(llm, workspace)
    try:
        repl.send("which port?")
        repl.expect("It listens on 8080.")
        repl.prompt()
        lines = repl.text.splitlines()
        repl.send("/usage")
        found = repl.expect(r"of which sub-agents\s+3 requests · ([\d,]+) tokens")
        repl.prompt()
    finally:
        repl.close()
    start_at = next(i for i, ln in enumerate(lines) if ln.startswith("  ▸ task find the port"))
    child = [ln for ln in lines[start_at + 1 :] if re.match(r"\s+✓ ", ln)]
    assert child[0].startswith("    ✓ read_file notes.md")  # indented under the task line
    assert child[1].startswith('    ✓ search_files "port"')
    assert re.match(r"  ✓ task find the port .*· 2 tool calls · 2,190 tokens", child[2]), child
    assert found.group(1) == "2,190"  # 3 requests of 700 in + 30 out
    assert re.search(r"requests\s+5\b", repl.text)  # the ledger's total holds them too
