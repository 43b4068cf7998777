"""The rough edges a newcomer hit (issue 17 §6), driven as they were met: the REPL in a pty,
the CLI as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT, provider_env, run_cli
from tests.helpers.repl_driver import Repl, start_repl

USAGE = {"input": 1234, "cache_read": 0, "cache_write": 0, "output": 56}


def quit_repl(repl: Repl) -> int:
    repl.send("/quit")
    return repl.wait_exit()


def test_narrow_terminal_banner_help_usage_tasks_and_resume_hint(llm, workspace):
    llm.reply("done one", usage=USAGE).reply("done two", usage=USAGE)
    repl = start_repl(llm, workspace, provider="deepseek", columns=60)
    try:
        banner = repl.text
        assert "Unicum · deepseek · deepseek-chat" in banner
        assert all(len(line) <= 60 for line in banner.splitlines()), banner
        repl.command("/help", r"/usage \[tasks\]\s+tokens and cost")
        repl.send("fix the flaky login test in auth module please")
        repl.expect("done one")
        repl.prompt()
        repl.send("now the signup one")
        repl.expect("done two")
        repl.prompt()
        mark = repl.pos
        repl.command("/usage tasks", r"total\s+2\s")
        table = repl.text[mark : repl.pos]
        assert "fix the flaky" in table and "now the signup" in table  # cut to fit 60 columns
        assert table.count(" done ") == 2  # how each task ended
        assert "notes" not in table and "/1" not in table  # text, not the task id
        assert "cached" in table and "cache wr" not in table  # DeepSeek reports reads only
        assert all(len(line) <= 60 for line in table.splitlines()), table
        assert quit_repl(repl) == 0
        assert "resume this session with: unicum --resume " in repl.text
    finally:
        repl.close()


def test_model_name_checked_against_the_list_and_picker(llm, workspace):
    names = ["claude-haiku-4-5", "claude-opus-4-1", "claude-sonnet-4-6"]
    llm.models = {"data": [{"id": n, "type": "model"} for n in names], "has_more": False}
    llm.reply("ok")
    repl = start_repl(llm, workspace)
    try:
        repl.command(
            "/model claude-sonet-4-6",
            r"no model 'claude-sonet-4-6': did you mean claude-sonnet-4-6\?",
        )
        repl.send("/model")
        repl.expect(r"\[1\] claude-haiku-4-5")
        repl.expect(r"\[3\] claude-sonnet-4-6 \*")
        repl.expect(r"\[1–3\] pick")
        repl.child.send("2")  # one key
        repl.expect("model set to claude-opus-4-1")
        repl.prompt()
        repl.send("hi")
        repl.expect("ok")
        repl.prompt()
        assert quit_repl(repl) == 0
    finally:
        repl.close()
    assert llm.requests[0].body["model"] == "claude-opus-4-1"


def test_model_without_a_list_is_taken_as_typed(llm, workspace):
    repl = start_repl(llm, workspace, provider="openai")  # the server answers 404 on /models
    try:
        repl.command("/model my-fine-tune", "model set to my-fine-tune")
        assert quit_repl(repl) == 0
    finally:
        repl.close()


def test_resume_lists_sessions_and_unknown_id_is_a_sentence(llm, workspace):
    llm.reply("first answer")
    env = provider_env(llm, "openai")
    run_cli("--dir", str(workspace), "--provider", "openai", "-p", "remember the milk", env=env)
    listed = run_cli("--dir", str(workspace), "--provider", "openai", "--resume", "-p", env=env)
    assert listed.returncode == 0, listed.stderr
    assert "remember the milk" in listed.stdout and "unicum --resume ID" in listed.stdout
    bad = run_cli(
        "--dir", str(workspace), "--provider", "openai", "--resume", "nope", "-p", "x", env=env
    )
    assert bad.returncode == 2
    assert bad.stderr.strip() == (
        "unicum: no saved session 'nope' in any folder: `unicum --resume` without an id lists "
        "this folder's sessions"
    )
    repl = Repl("--dir", str(workspace), "--provider", "openai", "--resume", env=env)
    try:
        repl.expect(r"\[1\] .*remember the milk")
        repl.expect(r"Resume which session\?")
        repl.child.send("1")
        repl.expect("resumed session")
        repl.expect("first answer")
        repl.prompt()
        assert quit_repl(repl) == 0
    finally:
        repl.close()


def test_chinese_set_up_errors(workspace, llm):
    cases = [
        ((), "没有找到 API 密钥：请在环境变量或 Unicum 主目录的 .env 文件中设置"),
        (
            ("--provider", "openai"),
            "openai 没有 API 密钥：请在环境变量或 Unicum 主目录的 .env 文件中设置 OPENAI_API_KEY",
        ),
        (("--provider", "nope"), "未知的服务商 'nope'：请从"),
        (
            ("--provider", "openai-compatible"),
            "服务商 openai-compatible 需要接口地址：请设置 UNICUM_BASE_URL",
        ),
    ]
    for args, expected in cases:
        for mode in (("-p", "hi"), ()):  # -p and the REPL say the same
            proc = run_cli("--lang", "zh", "--dir", str(workspace), *args, *mode)
            assert proc.returncode == 2 and expected in proc.stderr, (args, mode, proc.stderr)
    env = provider_env(llm, "openai")
    proc = run_cli("--lang", "zh", "--dir", str(workspace / "nope"), "-p", "hi", env=env)
    assert "--dir" in proc.stderr and "不是文件夹" in proc.stderr


def test_chinese_memory_and_context_phase(llm, workspace):
    repl = start_repl(llm, workspace, "--lang", "zh")
    try:
        repl.command("/memory", r"项目说明文件：无[\s\S]*还没有记忆条目")
        repl.command("/context", r"阶段\s+规划")
        assert quit_repl(repl) == 0
    finally:
        repl.close()


def test_subcommands_take_dir_anywhere(workspace, isolated_home):
    (workspace / "app.py").write_text("def main():\n    return 1\n")
    for args in (
        ("codemap", "build", "--dir", str(workspace)),
        ("codemap", "--dir", str(workspace), "stats"),
    ):
        proc = run_cli(*args)
        assert proc.returncode == 0, proc.stderr
    for args in (
        ("memory", "--dir", str(workspace), "list"),
        ("memory", "list", "--dir", str(workspace)),
    ):
        proc = run_cli(*args)
        assert proc.returncode == 0 and "no memory entries" in proc.stdout, proc.stderr
    for flag in ("--dir", "--project"):
        proc = run_cli("usage", flag, str(workspace), "--json")
        assert proc.returncode == 0 and json.loads(proc.stdout)["groups"] == []


def test_usage_json_into_head_has_no_traceback(isolated_home):
    from core.ledger import Ledger
    from tests.core.ledger.test_usage_report import row

    ledger = Ledger(isolated_home / "ledger.db")
    for n in range(3000):
        ledger.record(row(n, f"s{n}", 1, "p", "openai", "gpt-4o", (10, 0, 0, 1), 0.001))
    ledger.close()
    pipe = subprocess.run(
        f"{sys.executable} {ROOT / 'cli.py'} usage --json --by session | head -c 100",
        shell=True, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert len(pipe.stdout) == 100
    assert "Traceback" not in pipe.stderr and "BrokenPipe" not in pipe.stderr, pipe.stderr


def test_chinese_unreachable_server_final_error_in_the_repl(workspace):
    env = {"OPENAI_API_KEY": "fake-key", "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"}
    repl = Repl(
        "--dir", str(workspace), "--provider", "openai", "--lang", "zh", env=env, timeout=90
    )
    try:
        repl.prompt()
        repl.send("hi")
        repl.expect(r"错误：http://127\.0\.0\.1:9/v1 上没有服务在监听")
        repl.prompt()
        assert quit_repl(repl) == 0
    finally:
        repl.close()
