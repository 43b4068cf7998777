"""Every REPL question in the approvals' style (one key, the answer written after it), and the
/resume picker, in the real REPL."""

from __future__ import annotations

import os

from core.agent.records.transcript import sessions_dir
from my_agent.home import unicum_home
from tests.conftest import provider_env, run_cli
from tests.helpers.fake_llm import HttpError
from tests.helpers.repl_driver import start_repl


def test_init_takes_one_key_and_the_next_command_is_not_swallowed(llm, workspace):
    (workspace / "app.py").write_text("def serve():\n    return 1\n")
    llm.reply("```markdown\n# app\n\n`serve()` returns 1.\n```\n")  # the model's draft
    repl = start_repl(llm, workspace)
    try:
        repl.send("/init")
        repl.expect(r"Write AGENTS\.md\?")
        repl.expect(r"\[y\] yes · \[n\] no")
        repl.child.send("n")  # one key, no Enter
        repl.expect("→ no")
        repl.expect("AGENTS.md left as it was")
        repl.prompt()
        repl.command("/help", r"/cd DIR\s+work in another folder")  # typed next: it runs
    finally:
        repl.close()
    assert not (workspace / "AGENTS.md").exists()


def test_rewind_picks_the_turn_and_what_to_restore_with_one_key_each(llm, workspace):
    llm.call("write_file", {"path": "a.txt", "content": "one\n"})
    llm.reply("wrote a")
    llm.call("write_file", {"path": "a.txt", "content": "two\n"})
    llm.reply("wrote two")
    llm.reply("after the rewind")
    repl = start_repl(llm, workspace, "--yes")
    try:
        repl.send("write one")
        repl.expect("wrote a")
        repl.prompt()
        repl.send("write two")
        repl.expect("wrote two")
        repl.prompt()
        repl.send("/rewind")
        repl.expect(r"\[2\] turn 2: write two")
        repl.expect(r"\[1–2\] pick")
        repl.child.send("2")
        repl.expect("→ 2")
        repl.expect(r"\[b\] both \(Enter\) · \[f\] files only · \[c\] conversation only")
        repl.child.send("\r")  # Enter: both
        repl.expect("conversation back to before turn 2")
        repl.prompt()
        assert (workspace / "a.txt").read_text() == "one\n"
        repl.send("go on")
        repl.expect("after the rewind")
        repl.prompt()
    finally:
        repl.close()


def saved_session(llm, workspace, text: str, answer: str | None, age: int) -> None:
    """A session saved by a real `-p` run (a failed one when `answer` is None), `age` s old."""
    llm.reply(answer) if answer else llm.add(HttpError(400, "bad request"))
    env = provider_env(llm, "anthropic")
    run_cli("--dir", str(workspace), "--provider", "anthropic", "-p", text, env=env)
    folder = sessions_dir(unicum_home(), workspace.resolve())
    newest = max(folder.glob("*.jsonl"), key=os.path.getmtime)
    os.utime(newest, (newest.stat().st_mtime - age,) * 2)


def test_resume_lists_answered_sessions_first_and_picks_with_one_key(llm, workspace):
    saved_session(llm, workspace, "refactor the parser", "parser refactored", age=500)
    for n in range(3):
        saved_session(llm, workspace, "hi", None, age=10 - n)
    llm.reply("back on the parser")
    repl = start_repl(llm, workspace)
    try:
        repl.send("/resume")
        first = repl.expect(r"\[(\d)\] \S+ \S+  (\S[^\n]*?)  \(").group(2)
        repl.expect(r"Resume which session\?")
        repl.child.send("1")
        repl.expect("resumed session")
        repl.prompt()
        repl.send("continue")
        repl.expect("back on the parser")
        repl.prompt()
    finally:
        repl.close()
    assert first == "refactor the parser"  # not the newer failed one-liners


def test_resume_where_the_only_session_is_the_open_one_says_so(llm, workspace):
    llm.reply("hello")
    repl = start_repl(llm, workspace)
    try:
        repl.send("hi")
        repl.expect("hello")
        repl.prompt()
        repl.command("/resume", "no other saved session in this folder: this one is the only one")
    finally:
        repl.close()


def test_a_budget_stop_is_extended_with_one_key(llm, workspace):
    llm.call("read_file", {"path": "x.txt"}, usage={"input": 500, "output": 100})
    llm.reply("all done", usage={"input": 300, "output": 10})
    repl = start_repl(llm, workspace, "--budget-tokens", "1000")
    try:
        repl.send("do it")
        repl.expect(r"Extend the session budget\?")
        repl.expect(r"\[y\] by 1,000 tokens")
        repl.child.send("y")  # one key: the limit again
        repl.expect("→ by 1,000 tokens")
        repl.expect("session budget raised by 1,000 tokens; continuing")
        repl.expect("all done")
        repl.prompt()
        repl.command("/help", r"/cd DIR")  # nothing was left in the line
    finally:
        repl.close()
