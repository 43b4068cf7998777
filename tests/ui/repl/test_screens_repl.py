"""What the REPL's screen shows, read off a real pseudo-terminal: no raw escape codes, failed
commands with their exit code and tail, tool lines a person reads, each diff once."""

from __future__ import annotations

import pytest

from tests.ui.repl.test_repl import start

ESCAPE_SHOWN = "^["  # what a terminal shows for an escape code printed as text


@pytest.mark.parametrize(
    ("lang", "question"), [("en", r"Run this plan\? \[y\] yes"), ("zh", r"执行这个计划？")]
)
def test_the_plan_question_prints_no_raw_escape_codes(llm, workspace, lang, question):
    llm.reply("Plan:\n1. nothing")
    repl = start(llm, workspace, "--lang", lang, "--permission-mode", "plan")
    try:
        repl.send("plan it")
        repl.expect(question)
        repl.child.send("n")
        repl.prompt()
    finally:
        repl.close()
    assert ESCAPE_SHOWN not in repl.text
