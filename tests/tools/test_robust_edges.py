"""Robust edges: writes that cannot be redirected by a swapped symlink, read-only files, regex
time limits, streams without their final event, a non-stream 200, one process per session,
every unpaired tool call repaired, and a full disk."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from core.agent import close_open_tool_calls
from core.agent.records.session_lock import SessionLock
from core.agent.records.transcript import Transcript, find_session
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, user_text
from tests.conftest import provider_env, run_cli
from tests.helpers.fake_llm import NotStream, Reply, Truncated
from tools.base import NoPrompter, ToolContext
from tools.grep import search_python
from tools.regex_limit import SearchTimeout, deadline
from tools.registry import Registry
from tools.workspace import resolve_path, write_in_workspace


def _ctx(workspace: Path, home: Path) -> ToolContext:
    return ToolContext(workspace=workspace, home=home, prompter=NoPrompter())


def test_a_folder_swapped_for_a_symlink_after_the_check_cannot_redirect_the_write(
    workspace, isolated_home, tmp_path
):
    outside = tmp_path / "outside"
    outside.mkdir()
    (workspace / "sub").mkdir()
    ctx = _ctx(workspace, isolated_home)
    target = resolve_path(ctx, "sub/notes.txt", write=True)  # checked: inside the workspace
    (workspace / "sub").rmdir()
    (workspace / "sub").symlink_to(outside)  # swapped before the write
    with pytest.raises(Exception, match="symlink"):
        write_in_workspace(ctx, target, b"escaped")
    assert list(outside.iterdir()) == []
    (workspace / "link.txt").symlink_to(outside / "victim.txt")
    with pytest.raises(Exception, match="symlink"):
        write_in_workspace(ctx, workspace.resolve() / "link.txt", b"escaped")
    assert not (outside / "victim.txt").exists()


def test_read_only_files_are_refused_with_a_clear_error_and_no_temp_file(workspace, isolated_home):
    locked = workspace / "locked.txt"
    locked.write_text("keep me\n")
    locked.chmod(0o444)
    registry, ctx = Registry.default(), _ctx(workspace, isolated_home)
    wrote = registry.execute("write_file", {"path": "locked.txt", "content": "new"}, ctx)
    edited = registry.execute(
        "edit_file", {"path": "locked.txt", "old_string": "keep", "new_string": "lose"}, ctx
    )
    for out in (wrote, edited):
        assert out.is_error and "locked.txt is read-only; nothing was written" in out.content
    assert locked.read_text() == "keep me\n"
    assert sorted(p.name for p in workspace.iterdir()) == ["locked.txt"]
    fine = registry.execute("write_file", {"path": "a/b.txt", "content": "x\n"}, ctx)
    assert not fine.is_error and (workspace / "a" / "b.txt").read_text() == "x\n"
    assert sorted(p.name for p in (workspace / "a").iterdir()) == ["b.txt"]


def test_a_catastrophic_regex_stops_at_the_time_limit_in_every_engine(workspace, isolated_home):
    # (a|aa)+$ over 5000 a's and a "!" backtracks for longer than any run lasts: that the
    # search returns at all, with SearchTimeout, is the limit stopping it (no stopwatch)
    (workspace / "a.txt").write_text("a" * 5000 + "!\n")
    with pytest.raises(SearchTimeout):
        search_python(workspace, "", re.compile(r"(a|aa)+$", re.M), None, 10, deadline(0.5))
    # a look-around: rg cannot take it, the Python fallback runs, the tool says what happened
    out = Registry.default().execute(
        "search_files", {"pattern": r"(?=a)(a|aa)+$"}, _ctx(workspace, isolated_home)
    )
    assert out.is_error and "time limit" in out.content


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_stream_without_its_final_event_is_an_error_and_its_tool_call_never_runs(
    llm, workspace, provider
):
    call = Reply(tool_calls=[("write_file", {"path": "pwned.txt", "content": "x"})])
    llm.add(Truncated(call))
    proc = run_cli("--dir", str(workspace), "-p", "go", env=provider_env(llm, provider))
    assert proc.returncode == 1
    assert "broke off midway (the stream ended without its final event)" in proc.stderr
    assert not (workspace / "pwned.txt").exists()


def test_a_cut_stream_that_showed_nothing_is_retried_once(llm, workspace):
    llm.add(Truncated(Reply(text="")), Reply(text="all good"))
    proc = run_cli("--dir", str(workspace), "-p", "go", env=provider_env(llm, "openai"))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "all good" and len(llm.requests) == 2


def test_a_non_stream_200_is_a_clear_error(llm, workspace):
    llm.add(NotStream(Reply(text="hello")))
    proc = run_cli("--dir", str(workspace), "-p", "go", env=provider_env(llm, "openai"))
    assert proc.returncode == 1
    assert "answered without a stream (an HTTP 200 with no events)" in proc.stderr
    assert proc.stdout.strip() == ""


def test_a_second_continue_says_the_session_is_open_elsewhere(llm, workspace, isolated_home):
    env = provider_env(llm, "openai")
    llm.reply("first")
    assert run_cli("--dir", str(workspace), "-p", "one", env=env).returncode == 0
    path = find_session(isolated_home, workspace.resolve(), None)
    held = SessionLock.claim(path)  # as an open `--continue` REPL holds it
    try:
        proc = run_cli("--dir", str(workspace), "--continue", "-p", "two", env=env)
    finally:
        held.release()
    assert proc.returncode == 2
    assert f"session {path.stem} is open in another Unicum process" in proc.stderr
    llm.reply("second")
    again = run_cli("--dir", str(workspace), "--continue", "-p", "two", env=env)
    assert again.returncode == 0, again.stderr  # released: it may continue now


def test_loading_repairs_every_unpaired_call_not_only_the_last():
    a, b, c = ToolCall("a", "read_file", {}), ToolCall("b", "ls", {}), ToolCall("c", "x", {})
    history = [
        user_text("task"),
        Message("assistant", [a, b]),
        Message("user", [ToolResult("b", "ok")]),  # a's result is missing
        Message("assistant", [c]),
        user_text("next task"),  # c was never answered
        Message("assistant", [TextBlock("done")]),
        Message("user", [ToolResult("zz", "orphan"), TextBlock("more")]),  # no such call
    ]
    assert close_open_tool_calls(history, "interrupted") == 2
    assert [r.call_id for r in history[2].tool_results] == ["b", "a"]
    assert [r.call_id for r in history[4].tool_results] == ["c"] and history[4].text == "next task"
    assert history[-1].tool_results == [] and history[-1].text == "more"


def test_a_full_disk_is_one_warning_and_the_session_goes_on():
    warnings: list[str] = []
    transcript = Transcript(Path("/dev/full"), warn=warnings.append)
    history = [user_text("one")]
    transcript.sync(history)
    history.append(Message("assistant", [TextBlock("two")]))
    transcript.sync(history)
    assert len(warnings) == 1 and "the session goes on in memory" in warnings[0]
