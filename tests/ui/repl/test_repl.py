"""The real REPL in a pseudo-terminal against the scripted LLM server."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

from core.agent.records.transcript import read_history, sessions_dir
from tests.conftest import provider_env, run_cli
from tests.helpers.fake_llm import HttpError, Reply
from tests.helpers.repl_driver import start_repl, user_texts

USAGE_1 = {"input": 1234, "cache_read": 500, "cache_write": 77, "output": 42}
USAGE_2 = {"input": 300, "cache_read": 2000, "cache_write": 0, "output": 58}


def test_help_tools_task_usage_new_cd_quit(llm, workspace, tmp_path):
    llm.call("write_file", {"path": "hello.py", "content": "print('hi')\n"}, usage=USAGE_1)
    llm.reply("已创建 hello.py。", usage=USAGE_2)
    llm.reply("fresh start")
    llm.reply("in the other folder")
    repl = start_repl(llm, workspace)
    try:
        repl.command("/help", r"/cd DIR\s+work in another folder")
        for name in (
            "/new",
            "/tools",
            "/usage",
            "/model",
            "/compact",
            "/context",
            "/memory",
            "/undo",
            "/resume",
            "/quit",
        ):
            assert name in repl.text
        repl.command("/tools", r"✓ +terminal")
        assert re.search(r"✓ +read_file", repl.text) and re.search(r"✓ +write_file", repl.text)
        repl.command("/usag", r"did you mean /usage\?")

        repl.send("创建 hello.py，打印 hi")
        repl.expect(r"\+print\('hi'\)")  # the diff comes before the question
        repl.expect(r"Write hello\.py\?")  # the ask mode confirms workspace edits
        repl.child.send("a")  # one key
        repl.expect(r"✓ write_file hello\.py · 1 line +\d+\.\ds")  # the diff is not repeated
        repl.expect("已创建 hello.py。")
        repl.prompt()
        assert (workspace / "hello.py").read_text() == "print('hi')\n"
        assert user_texts(llm.requests[0].body) == ["创建 hello.py，打印 hi"]

        repl.send("/usage")
        for label, value in (
            ("requests", "2"),
            ("fresh input tokens", "1,534"),
            ("cache-read tokens", "2,500"),
            ("cache-write tokens", "77"),
            ("output tokens", "100"),
        ):
            repl.expect(rf"{label}\s+{value}\b")
        repl.expect(r"context now\s+~[\d,]+ / 200,000")
        repl.prompt()

        repl.command("/new", r"new session \S+")
        repl.send("hello again")
        repl.expect("fresh start")
        repl.prompt()
        assert user_texts(llm.requests[2].body) == ["hello again"]  # nothing from before /new
        repl.command("/usage", r"requests\s+1\b")

        repl.command(f"/cd {tmp_path / 'missing'}", r"error: .*missing: not a folder")
        other = tmp_path / "other"
        other.mkdir()
        repl.command(f"/cd {other}", r"now working in .*other")
        repl.send("where are you")
        repl.expect("in the other folder")
        repl.prompt()
        assert str(other) in llm.requests[3].body["system"][0]["text"]
        assert user_texts(llm.requests[3].body) == ["where are you"]

        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()


def test_ctrl_c_mid_stream_and_mid_tool_then_another_task(llm, workspace, isolated_home):
    llm.reply("slow " * 300, chunk_size=5, delay=0.2)  # 60 s: the Ctrl-C lands mid-stream
    llm.reply("second answer")
    llm.call("terminal", {"command": "sleep 300"})
    llm.reply("third answer")
    repl = start_repl(llm, workspace, provider="openai")
    try:
        repl.send("write a long story")
        repl.expect("slow slow slow")
        repl.child.sendintr()
        repl.expect("interrupted")
        repl.prompt()
        repl.send("now something short")
        repl.expect("second answer")
        repl.prompt()
        assert user_texts(llm.requests[1].body) == ["write a long story\n\nnow something short"]
        assert all(m["role"] != "assistant" for m in llm.requests[1].body["messages"])

        repl.send("wait a while")
        repl.expect("terminal sleep 300")  # the spinner line while the tool runs
        repl.child.sendintr()
        repl.expect("interrupted")
        repl.prompt()
        repl.send("go on")
        repl.expect("third answer")
        repl.prompt()
        tool_msg = llm.requests[3].body["messages"][-2]
        assert tool_msg["role"] == "tool" and "interrupted by the user" in tool_msg["content"]
        repl.child.sendeof()  # Ctrl-D exits
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    history = read_history(next(sessions_dir(isolated_home, workspace).glob("*.jsonl")))
    assert [m.role for m in history] == [
        "user",
        "user",
        "assistant",
        "user",
        "assistant",
        "user",
        "user",
        "assistant",
    ]
    assert history[-1].text == "third answer"


def test_continue_after_exit_restores_the_session(llm, workspace):
    llm.call("write_file", {"path": "a.txt", "content": "A\n"})
    llm.reply("wrote a.txt")
    llm.reply("I remember a.txt")
    repl = start_repl(llm, workspace)
    try:
        repl.send("make a.txt")
        repl.expect(r"Write a\.txt\?")
        repl.child.send("y")
        repl.expect("wrote a.txt")
        repl.prompt()
        repl.send("/exit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    before = llm.requests[1].body["messages"]

    repl = start_repl(llm, workspace, "--continue")
    try:
        repl.pos = 0
        repl.expect(r"» make a\.txt")  # the recap of where the session stood
        repl.prompt()
        repl.send("what did you do?")
        repl.expect("I remember a.txt")
        repl.prompt()
        repl.child.sendintr()
        repl.expect("Ctrl-C again")
        repl.prompt()
        repl.child.sendintr()  # twice at an empty prompt exits
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    after = llm.requests[2].body["messages"]

    def plain(messages):
        return json.loads(
            json.dumps(messages).replace(', "cache_control": {"type": "ephemeral"}', "")
        )

    assert plain(after[: len(before)]) == plain(before)
    assert after[len(before)]["content"][0]["text"] == "wrote a.txt"
    assert user_texts({"messages": after})[-1] == "what did you do?"


def test_undo_after_edit(llm, workspace):
    (workspace / "notes.txt").write_text("original\n")
    llm.call("write_file", {"path": "notes.txt", "content": "changed\n"})
    llm.reply("changed it")
    llm.reply("I see it was undone")
    repl = start_repl(llm, workspace, "--permission-mode", "auto-edit")  # edits without asking
    try:
        repl.send("change notes.txt")
        repl.expect("changed it")
        repl.prompt()
        assert (workspace / "notes.txt").read_text() == "changed\n"
        (workspace / "notes.txt").write_text("edited by hand\n")
        repl.command("/undo", r"not undone: notes\.txt changed after turn 1; /undo force")
        assert (workspace / "notes.txt").read_text() == "edited by hand\n"
        repl.command("/undo force", r"Undid turn 1: 1 file restored \(notes\.txt\)")
        assert (workspace / "notes.txt").read_text() == "original\n"
        repl.command("/undo", r"nothing to undo")
        repl.send("what changed?")
        repl.expect("I see it was undone")
        repl.prompt()
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    told = user_texts(llm.requests[2].body)
    assert told[-2].startswith("[The user ran /undo: undid turn 1: restored notes.txt") and told[
        -1
    ] == ("what changed?")  # the model learns its edit is gone


def test_time_debug_retry_and_chinese_ui(llm, workspace, isolated_home):
    llm.add(
        HttpError(529, "overloaded", headers={"retry-after": "1"}), Reply("好的", usage=USAGE_1)
    )
    repl = start_repl(llm, workspace, "--time", "--debug", "--lang", "zh")
    try:
        repl.pos = 0  # the banner came before the prompt
        log_path = Path(repl.expect(r"调试日志：(\S+\.jsonl)").group(1))
        repl.child.send("请解释一下代码\x7f\x7f")  # two backspaces over wide characters
        repl.child.send("\x1b[D这个")  # one to the left, then insert
        repl.send("")
        repl.expect(r"秒后第 1 次重试")
        repl.expect("好的")
        repl.expect(r"请求 1：首字 [\d.]+s，总计 [\d.]+ 秒")
        repl.expect(r"1 次请求 · 0 次工具调用 · 共 [\d.]+ 秒 = 模型 [\d.]+ 秒")
        repl.prompt()
        repl.command("/help", "显示本帮助")
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    assert log_path.parent == isolated_home / "logs"
    records = [json.loads(line) for line in log_path.read_text().splitlines()]
    kinds = [r["kind"] for r in records]
    assert kinds.count("request") == 1 and "response" in kinds and "retry" in kinds
    request = next(r["data"] for r in records if r["kind"] == "request")
    assert request["messages"][0]["content"][0]["text"] == "请解释一这个下"
    assert "fake-test-key" not in log_path.read_text()
    assert list(workspace.iterdir()) == []  # nothing written into the project


def test_print_json_output_and_transcript(llm, workspace, isolated_home):
    llm.call("terminal", {"command": "echo hi"}, usage=USAGE_1)
    llm.reply("done: hi", usage=USAGE_2)
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "say hi",
        "--output-format",
        "json",
        "--provider",
        "openai",
        env=provider_env(llm, "openai"),
    )
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert {"result", "is_error", "stop", "session_id", "turns", "usage", "duration_ms"} <= set(out)
    assert out["result"] == "done: hi" and out["turns"] == 2 and out["stop"] == "done"
    assert out["type"] == "result" and out["subtype"] == "success" and "total_cost_usd" in out
    assert isinstance(out["duration_ms"], int) and out["duration_ms"] > 0
    u = out["usage"]
    assert (u["input"], u["cache_read"], u["cache_write"], u["output"]) == (1534, 2500, 0, 100)
    path = sessions_dir(isolated_home, workspace) / f"{out['session_id']}.jsonl"
    history = read_history(path)
    assert [m.role for m in history] == ["user", "assistant", "user", "assistant"]
    assert history[1].tool_calls[0].arguments == {"command": "echo hi"}
    assert "hi" in history[2].tool_results[0].content


def test_repl_without_a_key_is_one_line_exit_2(workspace):
    proc = run_cli("--dir", str(workspace))
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "API key" in proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


PROMPTER_SCRIPT = """
from ui.words.strings import Strings
from ui.repl.prompt import ReplPrompter
p = ReplPrompter(Strings("en"), lambda: None, print)
print("CONFIRM=" + p.confirm("run rm -rf build?"))
print("ASK=" + p.ask("which database?", ["sqlite", "postgres"]))
print("FREE=" + p.ask("anything else?", []))
"""


def test_repl_prompter_asks_at_the_keyboard():
    import pexpect

    from tests.conftest import ROOT

    child = pexpect.spawn(
        sys.executable,
        ["-c", PROMPTER_SCRIPT],
        cwd=str(ROOT),
        env={**os.environ, "PROMPT_TOOLKIT_NO_CPR": "1"},
        encoding="utf-8",
        timeout=60,
    )
    child.expect(r"\[a\] always")
    child.send("m\r")  # not an answer key (nor is Enter): still asking
    child.send("s")  # one key, no Enter
    child.expect(r"→ yes, for the rest of this session")
    child.expect("CONFIRM=s")
    child.expect("2. postgres")
    child.send("2\r")
    child.expect("ASK=postgres")
    child.send("用中文回答\r")
    child.expect("FREE=用中文回答")
    child.expect(pexpect.EOF)


def test_prompt_comes_first_and_a_session_that_cannot_open_is_one_line(
    llm, workspace, isolated_home
):
    """The session opens in the background while the prompt is up; if it cannot open (here a
    broken price file), the first line gets one readable error and the REPL exits 2."""
    (isolated_home / "pricing.json").write_text('{"models": {"x": {"input": "cheap"}}}')
    repl = start_repl(llm, workspace)
    try:
        repl.send("hello")
        repl.expect(r"unicum: .*pricing\.json")
        assert repl.wait_exit() == 2
        assert "Traceback" not in repl.text
    finally:
        repl.close()
