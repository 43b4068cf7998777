"""Plan mode, the todo list, /agents and a sub-agent stopped by Ctrl-C, in the real REPL."""

from __future__ import annotations

import json
import time

from tests.helpers.fake_llm import Reply
from tests.helpers.repl_driver import start_repl, user_texts, wait_for_stream
from tests.ui.repl.test_approval_repl import tool_results

SHIFT_TAB = "\x1b[Z"
TODO = [
    {"content": "create hi.py", "status": "in_progress"},
    {"content": "say hello", "status": "pending"},
]


def test_plan_mode_then_the_approved_plan_runs_with_a_live_todo_list(llm, workspace):
    llm.call("write_file", {"path": "hi.py", "content": "print('hi')\n"})  # refused: plan mode
    llm.reply("Plan:\n1. create hi.py")
    llm.call("todo", {"todos": TODO})
    llm.call("write_file", {"path": "hi.py", "content": "print('hi')\n"})
    llm.call("todo", {"todos": [{**t, "status": "done"} for t in TODO]})
    llm.reply("done, hi.py greets.")
    repl = start_repl(llm, workspace)
    try:
        repl.child.send(SHIFT_TAB)  # as in Claude Code: default → accept edits → plan
        repl.expect(r"accept edits · unicum>")
        repl.child.send(SHIFT_TAB)
        repl.expect(r"plan ·")  # redrawn in place: only what changed is sent
        repl.send("add a greeting")
        repl.expect(r"not allowed in the plan mode")
        repl.expect(r"Run this plan\? \[y\] yes")
        assert not (workspace / "hi.py").exists()
        repl.child.send("y")
        repl.expect("plan approved; running it")
        repl.expect(r"Todo 0/2")
        repl.expect(r"◐ create hi\.py")
        repl.expect(r"☐ say hello")
        repl.expect(r"Write hi\.py\?")  # the plan runs in the session's own (ask) mode
        repl.child.send("y")
        repl.expect(r"Todo 2/2")
        repl.expect("done, hi.py greets.")
        repl.expect(r"\n\s*unicum>")  # plan mode is off again
        assert (workspace / "hi.py").read_text() == "print('hi')\n"
    finally:
        repl.close()
    first = user_texts(llm.requests[0].body)[0]
    assert first.startswith("add a greeting") and "[Plan mode: only read-only tools" in first
    assert any("not allowed in the plan mode" in r for r in tool_results(llm.requests[1].body))
    assert user_texts(llm.requests[2].body)[-1] == "The user approved the plan. Carry it out now."


def test_plan_command_and_a_declined_plan_in_chinese(llm, workspace):
    llm.reply("计划：1. 改 a.py")
    repl = start_repl(llm, workspace, "--lang", "zh", "--permission-mode", "plan")
    try:
        repl.send("重构 a.py")
        repl.expect(r"执行这个计划？\[y\] 是 · \[n\] 否，继续计划")
        repl.child.send("n")
        repl.expect("未执行，仍在计划模式")
        repl.expect(r"计划 · unicum>")
        repl.command("/plan", "计划模式已关闭")
        repl.command("/plan", "计划模式已开启")
    finally:
        repl.close()


def test_agents_lists_definitions_and_ctrl_c_stops_the_child(llm, workspace):
    folder = workspace / ".unicum" / "agents"
    folder.mkdir(parents=True)
    (folder / "finder.md").write_text(
        "---\nname: finder\ndescription: finds code fast\ntools: Read, Grep\n---\nBe brief.\n"
    )
    llm.call("task", {"prompt": "look around", "agent": "finder", "description": "look"})
    llm.add(Reply(text="still looking " * 200, delay=0.05))  # the child, slow
    llm.reply("fine, stopped.")
    repl = start_repl(llm, workspace)
    try:
        repl.command("/agents", r"finder +finds code fast +read_file, search_files")
        assert ".unicum/agents/finder.md" in repl.text and "general" in repl.text
        repl.send("explore")
        wait_for_stream(llm, 2)  # the child's answer under way
        repl.child.send("\x03")
        repl.expect("interrupted")
        repl.prompt()
        repl.send("what now?")
        repl.expect("fine, stopped.")
        repl.prompt()
    finally:
        repl.close()
    last = llm.requests[-1].body
    assert "still looking" not in json.dumps(last)  # the child's words never reach the parent
    results = tool_results(last)
    assert len(results) == 1 and "interrupted by the user" in results[0]


def test_a_mode_chosen_while_the_session_opens_is_kept(llm, workspace, isolated_home, tmp_path):
    """Shift-Tab at the prompt before the session is open (its SessionStart hook holds it
    here, until the test lets it go): the session that opens keeps the mode chosen."""
    held, gate = tmp_path / "held", tmp_path / "go"
    wait = f"touch {held}; while [ ! -e {gate} ]; do sleep 0.05; done"
    hold = {"type": "command", "command": wait}
    (isolated_home / "settings.json").write_text(
        json.dumps({"hooks": {"SessionStart": [{"hooks": [hold]}]}})
    )
    llm.call("write_file", {"path": "hi.py", "content": "print('hi')\n"})
    llm.reply("written")
    repl = start_repl(llm, workspace)
    try:
        for _ in range(1200):  # a hang-guard: the session starts opening in a moment
            if held.exists():
                break
            time.sleep(0.05)
        repl.child.send(SHIFT_TAB)
        repl.expect(r"accept edits · unicum>")  # chosen while the hook still holds the session
        gate.touch()
        repl.send("write hi.py")
        repl.expect(r"✓ write_file hi\.py")  # accept edits: written without a question
        repl.expect("written")
        repl.expect(r"accept edits · unicum>")
    finally:
        repl.close()
    assert "Write hi.py?" not in repl.text
    assert (workspace / "hi.py").read_text() == "print('hi')\n"
