"""REPL polish: core lines in Chinese, approval waits kept out of tool times, code map status."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from core.ledger import BudgetGuard, Limit
from core.model.retry import Failure, Target, broken_stream_line, error_line
from my_agent.errors import BudgetExceeded
from my_agent.messages import Message, ModelResponse, Usage
from tests.helpers.repl_driver import start_repl
from tools.permissions import check_command
from ui.words import relative_paths
from ui.words.strings import Strings


def test_zh_questions_relative_paths_and_approval_wait_in_the_pty(llm, workspace):
    llm.call("write_file", {"path": "calc.py", "content": "x = 1\n"})
    llm.call("terminal", {"command": "rm -rf ."})  # the project itself: asked even sandboxed
    llm.reply("好了")
    (workspace / "src").mkdir()
    repl = start_repl(llm, workspace, "--lang", "zh", "--time")
    try:
        repl.send("写一个 calc.py")
        repl.expect(r"写入 calc\.py？")  # Chinese, and the path relative to the project
        time.sleep(1.5)  # the person takes a while to answer
        repl.child.send("y")  # one key
        seconds = float(repl.expect(r"✓ write_file calc\.py · 1 行 +(\d+\.\d)s").group(1))
        repl.expect(
            r"运行 `rm -rf \.`？这是危险操作（rm -r of the workspace：会删除工作区或其 \.git"
        )
        repl.child.send("n")
        # the question is not repeated; the refusal is one short line
        refusal = repl.expect(r"✗ terminal rm -rf \.[^\n]*\n +(\S[^\n]*)\n").group(1)
        assert refusal.strip() == "已拒绝：已告知模型不要重试"
        repl.expect("好了")
        found = repl.expect(
            r"工具 ([\d.]+) 秒 \+ Unicum [\d.]+ 秒（启动 [\d.]+ 秒(?:，[^，（）]+ [\d.]+ 秒)*，"
            r"收尾 [\d.]+ 秒，上下文 [\d.]+ 毫秒） "
            r"\+ 等待你 ([\d.]+) 秒"
        )
        # no threshold: each tool ran between two requests, the first less the >= 1.5 s the
        # person took (a tool time holding the wait would be 1.5 s more than its gap allows)
        ran_within = llm.requests[1].at - llm.requests[0].at - 1.5
        assert seconds <= ran_within + 0.05  # the answer's wait is not the tool's time
        tools_within = ran_within + llm.requests[2].at - llm.requests[1].at
        assert float(found.group(2)) >= 1.5 and float(found.group(1)) <= tools_within + 0.05
        repl.prompt()
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    assert (workspace / "src").is_dir()
    # the model still reads English, with the path it gave
    tool_msgs = [m for m in llm.requests[2].body["messages"] if m["role"] == "user"]
    refused = str(tool_msgs[-1]["content"])
    assert "refused by the user: Run `rm -rf .`? It is destructive" in refused


def test_no_task_waits_for_the_code_map_being_indexed(llm, workspace):
    """The overview is on demand (the code_map tool), so even the first task goes out while
    a large project is still being indexed, and says nothing about it."""
    for i in range(2500):  # big enough that the background build is still running
        folder = workspace / f"pkg{i // 100}"
        folder.mkdir(exist_ok=True)
        (folder / f"m{i}.py").write_text(
            "".join(
                f"def f{i}_{j}(x):\n    return f{(i + 1) % 2500}_{j}(x) + {j}\n\n"
                for j in range(30)
            )
        )
    llm.reply("first")
    llm.reply("second")
    repl = start_repl(llm, workspace, "--lang", "zh")
    try:
        mark = repl.pos
        repl.send("hi")
        repl.expect("first")
        repl.prompt()
        repl.send("again")
        repl.expect("second")
        repl.prompt()
        assert "代码地图索引" not in repl.text[mark:]  # no task waited for the index
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    assert "Most-used files" not in llm.requests[0].body["system"][-1]["text"]  # on demand


def test_core_lines_in_chinese_and_unchanged_in_english():
    zh, en = Strings("zh"), Strings("en")
    target = Target(
        "deepseek",
        "deepseek-chat",
        "DEEPSEEK_API_KEY",
        "https://api.deepseek.com",
        "DEEPSEEK_BASE_URL",
        60,
    )
    dropped = Failure(None, "connection", True, "connection dropped", "")
    line = error_line(dropped, target, retries=2)
    assert en.line(line) == line
    assert zh.line(line) == (
        "无法连接 deepseek（https://api.deepseek.com）（已重试 2 次）（连接中断）："
        "请检查网络和 DEEPSEEK_BASE_URL"
    )
    assert zh.line(broken_stream_line(dropped, target)).startswith(
        "deepseek 的回复中途断开（连接中断）"
    )
    assert zh.line(error_line(Failure(401, "http", False, "HTTP 401", ""), target)) == (
        "deepseek 拒绝了 API 密钥（HTTP 401）：请检查 DEEPSEEK_API_KEY"
    )

    warnings = []
    guard = BudgetGuard(
        [Limit("task", "tokens", 1000, "--budget-tokens")],
        measure=lambda r: (r.usage, None),
        notify=warnings.append,
    )
    guard.on_task_start("t")
    guard.before_request(1)
    guard.on_response(ModelResponse(Message("assistant"), Usage(input=1100, output=100)))
    with pytest.raises(BudgetExceeded) as stop:
        guard.before_request(2)
    assert str(stop.value).startswith("budget reached: this task used 1,200 tokens")
    assert zh.line(str(stop.value)) == (
        "已达预算：本任务已用 1,200 令牌（上限 1,000 令牌）；"
        "没有再调用模型（可用 --budget-tokens 提高）"
    )
    guard.on_task_start("u")
    with pytest.raises(BudgetExceeded) as ahead:  # the last request again would pass it
        guard.before_request(1)
    assert (
        zh.line(warnings[-1].text)
        == "任务预算已用 80%：0 令牌（上限 1,000 令牌），下一次模型调用后约 1,300 令牌"
    )
    assert zh.line(str(ahead.value)) == (
        "已达预算：本任务已用 0 令牌（上限 1,000 令牌），下一次模型调用（约 1,300 令牌）会超出，"
        "因此没有调用（可用 --budget-tokens 提高）"
    )
    guard = BudgetGuard(
        [Limit("task", "tokens", 1000, "--budget-tokens")],
        measure=lambda r: (r.usage, None),
        notify=warnings.append,
    )
    guard.on_task_start("v")
    guard.before_request(1)
    guard.on_response(ModelResponse(Message("assistant"), Usage(input=650)))
    assert zh.line(warnings[-1].text) == "任务预算已用 60%：650 令牌（上限 1,000 令牌）"
    assert zh.line("60% of the session budget used: $0.60 of $1.00") == (
        "会话预算已用 60%：$0.60（上限 $1.00）"
    )
    assert zh.line("something new from core") == "something new from core"


def test_approval_questions_show_workspace_paths_relative(tmp_path):
    ws = tmp_path / "proj"
    reasons = "; ".join(check_command("rm -rf /x/src", ws))
    assert relative_paths(f"Write {ws}/calc.py?", ws) == "Write calc.py?"
    assert relative_paths(f"Run `rm -rf {ws}/src`? It is destructive ({reasons}).", ws) == (
        f"Run `rm -rf src`? It is destructive ({reasons})."
    )
    outside = f"Write /elsewhere{ws}/a.py, outside the workspace {ws}?"
    assert relative_paths(outside, ws) == outside  # only paths that start at the workspace
    assert Strings("zh").line(outside) == f"写入 /elsewhere{ws}/a.py？它在工作区 {ws} 之外。"
    assert re.fullmatch(r"Write \S+\?", relative_paths(f"Write {ws}/d/e.py?", Path("/nope")))
