"""What the REPL's screen shows, read off a real pseudo-terminal: no raw escape codes, failed
commands with their exit code and tail, tool lines a person reads, each diff once."""

from __future__ import annotations

import re

import pytest

from tests.helpers.repl_driver import start_repl
from tests.ui.repl.test_approval_repl import tool_results

ESCAPE_SHOWN = "^["  # what a terminal shows for an escape code printed as text


@pytest.mark.parametrize(
    ("lang", "question"), [("en", r"Run this plan\? \[y\] yes"), ("zh", r"执行这个计划？")]
)
def test_the_plan_question_prints_no_raw_escape_codes(llm, workspace, lang, question):
    llm.reply("Plan:\n1. nothing")
    repl = start_repl(llm, workspace, "--lang", lang, "--permission-mode", "plan")
    try:
        repl.send("plan it")
        repl.expect(question)
        repl.child.send("n")
        repl.prompt()
    finally:
        repl.close()
    assert ESCAPE_SHOWN not in repl.text


def test_a_failed_command_shows_its_tail_and_exit_code_as_the_model_gets_them(llm, workspace):
    command = "for i in $(seq 1 12); do echo step$i; done; echo boom; exit 3"
    llm.call("terminal", {"command": command})
    llm.reply("it failed.")
    repl = start_repl(llm, workspace, "--yes")
    try:
        repl.send("run it")
        first = repl.expect(r"✗ terminal for i in").end()
        last = repl.expect(r"it failed\.").start()
        shown = repl.text[first:last]
        repl.prompt()
    finally:
        repl.close()
    for line in ("step11", "step12", "boom", "[exit 3]", "… 8 lines before"):
        assert line in shown, line
    assert "step7\n" not in shown  # the tail, not the whole output
    sent = tool_results(llm.requests[1].body)[0]
    assert sent.endswith("step12\nboom\n[exit 3]")  # what the screen's tail ends with


TODOS = [
    {"content": "write the parser", "status": "done"},
    {"content": "test it", "status": "in_progress"},
]


def test_tool_lines_are_one_readable_summary_per_tool(llm, workspace):
    (workspace / "notes.md").write_text("a\nb\nc\n")
    llm.call("todo", {"todos": TODOS})
    llm.call("read_file", {"path": "notes.md", "offset": 2, "limit": 2})
    llm.call("search_files", {"pattern": "def main", "path": ".", "file_glob": "*.py"})
    llm.call("memory", {"action": "add", "key": "port", "content": "the API listens on 8080"})
    llm.call("write_file", {"path": "out.txt", "content": "1\n2\n3\n"})
    llm.reply("all done.")
    repl = start_repl(llm, workspace, "--yes")
    try:
        repl.send("go")
        repl.expect("all done.")
        repl.prompt()
    finally:
        repl.close()
    screen = repl.text
    for line in (
        "✓ todo 1/2 done · test it",
        "✓ read_file notes.md · lines 2–3",
        '✓ search_files "def main" · . · *.py',
        '✓ memory add · port · "the API listens on 8080"',
        "✓ write_file out.txt · 3 lines",
    ):
        assert line in screen, line
    assert "{'" not in screen and "[{" not in screen  # no Python reprs, no raw JSON


def test_an_approved_edit_shows_its_diff_once_and_its_hunks_name_the_file(llm, workspace):
    (workspace / "src").mkdir()
    (workspace / "src" / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    llm.call("edit_file", {"path": "src/calc.py", "old_string": "a - b", "new_string": "a + b"})
    llm.reply("fixed.")
    repl = start_repl(llm, workspace)
    try:
        repl.send("fix add")
        repl.expect(r"Edit src/calc\.py\?")
        repl.child.send("y")
        repl.expect("fixed.")
        repl.prompt()
        asked = repl.text
    finally:
        repl.close()
    assert asked.count("+    return a + b") == 1
    assert re.search(r"@@ -\S+ \+\S+ @@ src/calc\.py", asked)


def test_an_edit_run_without_a_question_shows_its_diff_once_naming_the_file(llm, workspace):
    (workspace / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    llm.call("edit_file", {"path": "calc.py", "old_string": "a - b", "new_string": "a + b"})
    llm.reply("fixed.")
    repl = start_repl(llm, workspace, "--permission-mode", "auto-edit")
    try:
        repl.send("fix add")
        repl.expect("fixed.")
        repl.prompt()
    finally:
        repl.close()
    assert repl.text.count("+    return a + b") == 1
    assert re.search(r"@@ .* @@ calc\.py", repl.text)
