"""The walk-through's REPL steps (docs/walkthrough.md, sections 2-6 and 11), each as a person
types it; the scripted model stands in for a real one."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.fake_llm import ScriptedLLM
from tests.helpers.repl_driver import Repl, start_repl

SHIFT_TAB = "\x1b[Z"


def repl(llm: ScriptedLLM, workspace: Path, *extra: str) -> Repl:
    return start_repl(llm, workspace, *extra)


def first_task_and_approvals(llm: ScriptedLLM, workspace: Path) -> None:
    """2. A first task: the diff comes before the question, one key answers. 3. A command."""
    llm.call("write_file", {"path": "hello.py", "content": "print('hello')\n"})
    llm.call("terminal", {"command": "python3 hello.py"})
    llm.reply("hello.py prints hello.")
    r = repl(llm, workspace)
    try:
        r.send("create hello.py that prints hello, and run it")
        r.expect(r"\+print\('hello'\)")
        r.expect(r"Write hello\.py\?")
        r.expect(r"\[y\] yes once · \[s\] every edit this session · \[a\] always")
        r.child.send("y")
        r.expect(r"✓ write_file hello\.py · 1 line")
        r.expect(r"✓ terminal python3 hello\.py")
        r.expect("hello.py prints hello.")
        r.prompt()
        assert (workspace / "hello.py").read_text() == "print('hello')\n"
        plan_then_undo_and_rewind(llm, r, workspace)
        r.send("/quit")
        assert r.wait_exit() == 0
    finally:
        r.close()


def plan_then_undo_and_rewind(llm: ScriptedLLM, r: Repl, workspace: Path) -> None:
    """4. Plan mode (Shift-Tab twice: accept edits, then plan), then 5. /undo and /rewind."""
    llm.reply("Plan:\n1. add test_hello.py")
    llm.call("write_file", {"path": "test_hello.py", "content": "def test_hi():\n    pass\n"})
    llm.reply("test added.")
    r.child.send(SHIFT_TAB)
    r.expect(r"accept edits · unicum>")
    r.child.send(SHIFT_TAB)
    r.expect(r"plan ·")  # the prompt is redrawn in place: only its new part is written
    r.send("add a test")
    r.expect(r"Run this plan\? \[y\] yes · \[n\] no, keep planning")
    r.child.send("y")
    r.expect(r"Write test_hello\.py\?")
    r.child.send("s")  # yes for the rest of this session
    r.expect("test added.")
    r.prompt()
    assert (workspace / "test_hello.py").is_file()
    r.command("/undo", r"test_hello\.py")
    assert not (workspace / "test_hello.py").exists()
    llm.reply("back at the start.")
    r.send("/rewind")
    r.expect(r"\[1\] turn 1: create hello\.py")
    r.expect(r"Rewind to before which turn\?")
    r.child.send("1")
    r.expect(r"\[b\] both \(Enter\)")
    r.child.send("\r")
    r.expect("conversation back to before turn 1")
    r.prompt()
    assert not (workspace / "hello.py").exists()  # the files of turn 1 are gone too
    r.send("where are we?")
    r.expect("back at the start.")
    r.prompt()


def resume(llm: ScriptedLLM, workspace: Path) -> None:
    """6. Leave and come back: `unicum --continue` shows where you were."""
    llm.reply("still here.")
    r = repl(llm, workspace, "--continue")
    try:
        assert "where are we?" in r.text and "back at the start." in r.text  # the recap
        r.send("are you there?")
        r.expect("still here.")
        r.prompt()
        r.send("/resume")
        r.expect("no other saved session in this folder: this one is the only one")
        r.prompt()
    finally:
        r.close()


def chinese(llm: ScriptedLLM, workspace: Path) -> None:
    """11. The same screens in Chinese (`--lang zh`, or a zh_CN locale)."""
    llm.call("write_file", {"path": "你好.py", "content": "print('你好')\n"})
    llm.reply("好了。")
    r = repl(llm, workspace, "--lang", "zh")
    try:
        r.command("/help", r"/cd DIR\s+切换到另一个项目目录")
        r.send("写一个 你好.py")
        r.expect(r"写入 你好\.py？")
        r.expect(r"\[y\] 仅此一次")
        r.child.send("y")
        r.expect("好了。")
        r.prompt()
        r.command("/usage", r"请求数\s+2\b")
    finally:
        r.close()
