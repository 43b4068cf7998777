"""Compaction survives a resume: after `/compact`, exit and `--continue`, the first request is
the one the live session would have sent (its summary, archived outputs and lined outputs),
and `/context` counts the compactions made before."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from core.context import CacheAwareContext, policy_snapshot, restore_policy
from tests.conftest import provider_env
from tests.helpers.repl_driver import Repl

LINE = "def handler_{n}(request):  # serves route number {n} of the application\n"
SEARCH_LINE = "match_{n} = lookup('needle', {n})  # a broad search hits every one of these\n"


def workspace_with_files(root: Path) -> Path:
    root.mkdir()
    for f in range(6):
        (root / f"mod{f}.py").write_text("".join(LINE.format(n=f * 1000 + n) for n in range(220)))
    (root / "hits.py").write_text("".join(SEARCH_LINE.format(n=n) for n in range(160)))
    return root


def script(llm, compact: bool) -> None:
    """Two tasks that read and search a lot, the /compact summary, then the third task."""
    llm.call("search_files", {"pattern": "needle"})
    for f in range(3):
        llm.call("read_file", {"path": f"mod{f}.py"})
    llm.reply("first look done")
    for f in range(3, 6):
        llm.call("read_file", {"path": f"mod{f}.py"})
    llm.call("read_file", {"path": "mod0.py"})  # read again: the first read becomes its line
    llm.call("search_files", {"pattern": "needle"})
    llm.reply("second look done")
    if compact:
        llm.reply("SUMMARY: six modules of handlers were read; hits.py has the needles.")
    llm.reply("third answer")


def start(llm, workspace: Path, *extra: str) -> Repl:
    repl = Repl(
        "--dir", str(workspace), "--provider", "openai", "--no-codemap", *extra,
        env=provider_env(llm, "openai"), timeout=40,
    )  # fmt: skip
    repl.prompt()
    return repl


def compactions(repl: Repl) -> int:
    return int(repl.command("/context", r"compactions so far\s*│?\s*(\d+)").group(1))


def first_part(repl: Repl, compact: bool) -> int:
    repl.command("look around", "first look done")
    repl.command("look again", "second look done")
    if compact:
        repl.command("/compact", r"context: [\d,]+ → [\d,]+ tokens")
    return compactions(repl)


def conversation(body: dict) -> list[dict]:
    """The request's messages without the system prompt (memory changes at a session's end),
    the scripted server's call ids numbered by first appearance (they count across runs)."""
    text = json.dumps([m for m in body["messages"] if m["role"] != "system"])
    ids: dict[str, str] = {}
    text = re.sub(r"call_\d+", lambda m: ids.setdefault(m.group(0), f"id{len(ids)}"), text)
    return json.loads(text)


def run(llm, workspace: Path, resumed: bool, compact: bool) -> tuple[list[dict], int, int]:
    script(llm, compact)
    repl = start(llm, workspace)
    try:
        before = first_part(repl, compact)
        if resumed:
            repl.send("/quit")
            assert repl.wait_exit() == 0
            repl = start(llm, workspace, "--continue")
        repl.command("and now", "third answer")
        after = compactions(repl)
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    return conversation(llm.requests[-1].body), before, after


@pytest.mark.parametrize("compact", [True, False], ids=["summary", "archived-and-lined"])
def test_the_resumed_first_request_is_the_live_one(llm, tmp_path, compact):
    live, before, after = run(llm, workspace_with_files(tmp_path / "live"), False, compact)
    text = json.dumps(live)
    if compact:
        assert "[Summary of the session so far]" in text and "SUMMARY: six modules" in text
    else:
        # archived reads, or reads cut to their lines
        assert re.search(r"\[archived #\w+\] \[read_file\]|recall a\d+ lines=", text)
        assert re.search(r"\[archived #\w+\] \[search_files\]", text)  # a lined search
    assert (before >= 1 or not compact) and after == before  # reads may be lined, no event
    llm.requests.clear()
    resumed, before_r, after_r = run(llm, workspace_with_files(tmp_path / "resumed"), True, compact)
    assert resumed == live
    assert (before_r, after_r) == (before, before)  # /context after the resume: the same count


def test_every_attribute_of_the_policy_comes_back(llm, tmp_path):
    """The generic snapshot: a policy restored from a lived one's snapshot snapshots the same."""
    from my_agent.messages import Message, TextBlock, ToolCall, ToolResult

    lived = CacheAwareContext()
    history = [Message("user", [TextBlock("read them")])]
    for n in range(8):
        call = ToolCall(f"c{n}", "read_file", {"path": f"m{n}.py"})
        output = type("Out", (), {"content": LINE.format(n=n) * 200, "is_error": False})()
        history += [
            Message("assistant", [call]),
            Message("user", [ToolResult(call.id, output.content)]),
        ]
        lived.on_tool_result(call, output)
        lived.messages_for_request(history)
    lived.compact(history, lambda messages: "a summary")
    saved = json.loads(json.dumps(policy_snapshot(lived)))
    fresh = CacheAwareContext()
    assert restore_policy(fresh, saved)
    assert policy_snapshot(fresh) == policy_snapshot(lived)
    assert fresh.view(history) == lived.view(history)
    assert not restore_policy(CacheAwareContext(), {"policy": "ObservationMasking", "state": {}})
