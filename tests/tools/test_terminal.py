"""terminal: process groups, timeouts, huge and undecodable output, a clean environment."""

from __future__ import annotations

import os
import time

import pytest

from tests.helpers.tool_helpers import make_ctx, run


@pytest.fixture
def ctx(workspace, isolated_home):
    return make_ctx(workspace, isolated_home)


def test_exit_code_and_interleaved_output(ctx):
    out = run(ctx, "terminal", command="echo one; echo two >&2; echo three; exit 3")
    assert out.is_error and out.data["exit_code"] == 3
    assert out.content == "one\ntwo\nthree\n[exit 3]"


def test_runs_in_workspace_with_stdin_closed(ctx, workspace):
    out = run(ctx, "terminal", command="pwd; cat; echo done")
    assert out.content.splitlines()[0] == str(workspace.resolve())
    assert "done" in out.content and out.data["exit_code"] == 0
    (workspace / "sub").mkdir()
    assert str(workspace / "sub") in run(ctx, "terminal", command="pwd", cwd="sub").content


def test_timeout_kills_grandchildren(ctx, workspace):
    # killed, not waited for: a grandchild that lived out its sleep would leave `ended`;
    # 3 s gives the grandchild (a fork and an exec) ample time to write its pid first
    out = run(
        ctx,
        "terminal",
        timeout=3,
        command="(bash -c 'echo $$ > grandchild.pid; sleep 60; touch ended' &) ; sleep 60",
    )
    assert out.is_error and "timed out after 3s" in out.content and out.data["timed_out"]
    pid = int((workspace / "grandchild.pid").read_text())
    for _ in range(300):  # a hang-guard: it is gone at the first look unless something broke
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.1)
    else:
        pytest.fail(f"grandchild {pid} survived the timeout")
    assert not (workspace / "ended").exists()


def test_fifty_megabytes_of_output(ctx):
    out = run(ctx, "terminal", command="yes 'line of output' | head -c 52428800; echo END")
    assert out.data["exit_code"] == 0
    assert len(out.content) < 25_000
    assert out.content.startswith("line of output\n") and "END\n[exit 0" in out.content
    assert "lines elided" in out.content
    full = out.data["full_output"]
    assert full.startswith("line of output") and full.endswith("END")
    assert len(full) > 1_000_000


def test_invalid_utf8_output(ctx):
    out = run(ctx, "terminal", command=r"printf 'ok \xff\xfe\xfd end\n'")
    assert not out.is_error and "ok " in out.content and " end" in out.content
    gbk = run(ctx, "terminal", command=r"printf '\xc4\xe3\xba\xc3\n'")  # 你好 in GBK
    assert "你好" in gbk.content


def test_child_env_has_no_api_keys(ctx, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "fake-should-not-leak")
    monkeypatch.setenv("ZHIPUAI_API_KEY", "fake-zp-should-not-leak")
    out = run(ctx, "terminal", command="env")
    assert "should-not-leak" not in out.content
    assert "PATH=" in out.content


def test_bad_arguments(ctx):
    assert "empty" in run(ctx, "terminal", command="  ").content
    assert "at least 1" in run(ctx, "terminal", command="ls", timeout=0).content
    assert "not a folder" in run(ctx, "terminal", command="ls", cwd="missing").content


def test_ctrl_c_kills_the_whole_group(ctx, workspace):
    import _thread
    import threading

    def interrupt_when_started() -> None:
        for _ in range(600):  # a hang-guard: the pid is there in a moment
            pidfile = workspace / "grandchild.pid"
            if pidfile.exists() and pidfile.stat().st_size:
                break
            time.sleep(0.05)
        _thread.interrupt_main()

    threading.Thread(target=interrupt_when_started, daemon=True).start()
    with pytest.raises(KeyboardInterrupt):
        run(ctx, "terminal", command="(bash -c 'echo $$ > grandchild.pid; sleep 60' &); sleep 60")
    pid = int((workspace / "grandchild.pid").read_text())
    for _ in range(50):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.1)
    pytest.fail(f"grandchild {pid} survived Ctrl-C")


def test_mostly_utf8_with_a_bad_byte_stays_utf8(ctx):
    out = run(ctx, "terminal", command=r"printf '中文输出 ok \x80 end\n'")
    assert "中文输出 ok" in out.content and "end" in out.content


def test_chatty_background_child_does_not_hang_the_call(ctx):
    # the child writes to the pipe for ever: the call returning at all is the guarantee
    out = run(
        ctx, "terminal", command="(while true; do echo tick; sleep 0.01; done) & echo started"
    )
    assert "started" in out.content and out.data["exit_code"] == 0
    assert not out.is_error and not out.data["timed_out"]
