"""Approvals in the real REPL, as a person answers them: the diff first, then one key."""

from __future__ import annotations

import json

from tests.helpers.repl_driver import start_repl


def tool_results(body: dict) -> list[str]:
    """Tool results sent back to the model (Anthropic wire)."""
    return [
        b.get("content") if isinstance(b.get("content"), str) else json.dumps(b.get("content"))
        for m in body["messages"]
        if isinstance(m["content"], list)
        for b in m["content"]
        if b.get("type") == "tool_result"
    ]


def test_edit_shows_the_diff_before_the_change_and_e_sends_the_reason(llm, workspace):
    (workspace / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    edit = {"path": "calc.py", "old_string": "a - b", "new_string": "a + b"}
    llm.call("edit_file", edit)
    llm.reply("ok, I will not.")
    llm.call("edit_file", edit)
    llm.reply("fixed.")
    repl = start_repl(llm, workspace)
    try:
        repl.send("fix add")
        repl.expect(r"-    return a - b")
        repl.expect(r"\+    return a \+ b")
        repl.expect(r"Edit calc\.py\?")
        assert "a - b" in (workspace / "calc.py").read_text()  # asked before the change
        repl.expect(r"\[e\] no, and say why")
        repl.child.send("e")
        repl.expect(r"why \(sent to the model\)")
        repl.send("keep subtraction")
        repl.expect("ok, I will not.")
        repl.prompt()
        assert "a - b" in (workspace / "calc.py").read_text()
        assert any(
            "The user says: keep subtraction" in r for r in tool_results(llm.requests[1].body)
        )

        repl.send("fix it anyway")
        repl.expect(r"Edit calc\.py\?")
        repl.child.send("a")  # always: saved for the project
        repl.expect(r"→ yes, always in this project \(saved\)")
        repl.expect("fixed.")
        repl.prompt()
        assert "a + b" in (workspace / "calc.py").read_text()
    finally:
        repl.close()
    saved = json.loads((workspace.parent / "unicum-home" / "approvals.json").read_text())
    assert [k for keys in saved.values() for k in keys] == [f"edit:{workspace / 'calc.py'}"]


def test_the_same_choices_in_chinese(llm, workspace):
    llm.call("terminal", {"command": "git reset --hard"})  # asked even sandboxed
    llm.reply("好的。")
    repl = start_repl(llm, workspace, "--lang", "zh")
    try:
        repl.send("改权限")
        repl.expect(
            r"运行 `git reset --hard`？这是危险操作（git reset --hard：会丢弃未提交的修改）"
        )
        repl.expect(r"\[y\] 仅此一次 · \[s\] 本会话 · \[a\] 总是 · \[n\] 否 · \[e\] 否，并说明原因")
        repl.child.send("n")
        repl.expect("→ 否")
        repl.expect("好的。")
        repl.prompt()
    finally:
        repl.close()


def test_new_lines_read_in_chinese():
    from tools.registry import PLAN_REFUSAL
    from ui.words.strings import Strings

    zh = Strings("zh")
    assert zh.line("Edit calc.py?") == "修改 calc.py？"
    assert zh.line("refused by the user: Edit calc.py? The user says: 别改") == (
        "你已拒绝：修改 calc.py？ 你的理由：别改"
    )
    assert zh.line(PLAN_REFUSAL.format(name="write_file")).startswith(
        "计划模式下不能使用 write_file"
    )
    assert zh.line("task: no sub-agent 'x'; known: general") == (
        "task：没有名为 'x' 的子代理；已有：general"
    )
    for message in (
        "[y] yes once · [s] this session · [a] always · [n] no · [e] no, and say why ",
        "Run this plan? [y] yes · [n] no, keep planning ",
        "plan mode on: read-only tools until you approve the plan (Shift-Tab or /plan: off)",
        "plan mode on/off (with a task: plan it); Shift-Tab cycles the modes",
        "sub-agents the task tool can start",
        "Todo",
    ):
        assert zh.t(message) != Strings("en").t(message) == message
