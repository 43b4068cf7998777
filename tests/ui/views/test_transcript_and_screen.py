"""Transcripts, debug-log redaction and the pure pieces of the screen."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.agent import TranscriptError, close_open_tool_calls, find_session, list_sessions
from core.agent.records.debug_log import DebugLog, redact
from core.agent.records.transcript import Transcript, read_history, sessions_dir
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, user_text
from ui.views.render import split_stable
from ui.words.strings import Strings, detect_lang


def call_message() -> Message:
    return Message(
        "assistant",
        [
            TextBlock("let me look"),
            ToolCall("c1", "read_file", {"path": "a.py"}, '{"path": "a.py"}'),
        ],
    )


def test_transcript_appends_and_replays_exactly(tmp_path: Path, workspace: Path):
    t = Transcript.create(tmp_path, workspace, "s1", provider="openai", model="m")
    history: list[Message] = []
    t.sync(history)
    assert not t.path.exists()  # an idle session leaves no file
    history.append(user_text("读一下 a.py"))
    t.sync(history)
    history += [call_message(), Message("user", [ToolResult("c1", "print(1)")])]
    t.sync(history)
    t.sync(history)  # nothing new: nothing written
    lines = t.path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(x)["type"] for x in lines] == ["session", "message", "message", "message"]
    assert "读一下" in lines[1]  # readable UTF-8, not \\u escapes
    assert read_history(t.path) == history


def test_replaced_history_is_a_reset_and_torn_line_is_skipped(tmp_path: Path, workspace: Path):
    t = Transcript.create(tmp_path, workspace, "s2")
    history = [user_text("one"), Message("assistant", [TextBlock("two")])]
    t.sync(history)
    compacted = [user_text("summary of one and two")]
    t.sync(compacted)
    compacted.append(user_text("three"))
    t.sync(compacted)
    with t.path.open("a") as fh:
        fh.write('{"type": "message", "message": {"ro')  # killed mid-write
    assert read_history(t.path) == compacted


def test_sessions_are_listed_newest_first_and_found(tmp_path: Path, workspace: Path):
    import os

    for n, sid in enumerate(["old", "new"]):
        t = Transcript.create(tmp_path, workspace, sid)
        t.sync([user_text(f"task {sid}\nmore")])
        os.utime(t.path, (1000 + n, 1000 + n))
    infos = list_sessions(tmp_path, workspace)
    assert [(i.session_id, i.first_task, i.messages) for i in infos] == [
        ("new", "task new", 1),
        ("old", "task old", 1),
    ]
    assert find_session(tmp_path, workspace, None).stem == "new"
    assert find_session(tmp_path, workspace, "old").stem == "old"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert find_session(tmp_path, elsewhere, "old").stem == "old"  # an ID is enough
    with pytest.raises(TranscriptError, match="no saved session"):
        find_session(tmp_path, elsewhere, None)
    with pytest.raises(TranscriptError):
        find_session(tmp_path, workspace, "../x")
    assert sessions_dir(tmp_path, workspace).parent == tmp_path / "sessions"


def test_open_tool_calls_get_results():
    history = [user_text("go"), call_message()]
    assert close_open_tool_calls(history, "stopped") == 1
    assert history[-1].tool_results[0].call_id == "c1" and history[-1].tool_results[0].is_error
    assert close_open_tool_calls(history, "stopped") == 0


def test_debug_log_redacts_keys(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "fake-openai-value")
    log = DebugLog(tmp_path, "s")
    log.write(
        "request",
        {
            "headers": {"Authorization": "Bearer fake-openai-value"},
            "api_key": "fake-openai-value",
            "max_tokens": 5,
            "messages": [{"content": "my key is fake-openai-value"}],
        },
    )
    text = log.path.read_text()
    assert "fake-openai-value" not in text
    record = json.loads(text)
    assert record["data"]["max_tokens"] == 5
    assert record["data"]["messages"][0]["content"] == "my key is [redacted]"
    assert redact({"token": "", "x": [1, "a"]}, []) == {"token": "", "x": [1, "a"]}


def test_split_stable_keeps_code_fences_whole():
    text = "para one\n\n```py\na = 1\n\nb = 2\n```\n\ntail being typed"
    done, rest = split_stable(text)
    assert done == "para one\n\n```py\na = 1\n\nb = 2\n```\n\n"
    assert rest == "tail being typed"
    assert split_stable("```\nopen fence\n\nstill open") == ("", "```\nopen fence\n\nstill open")


def test_the_language_comes_from_the_locale():
    assert detect_lang({"LANG": "zh_CN.UTF-8"}) == "zh"
    assert detect_lang({"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}) == "en"
    assert detect_lang({}) == "en"
    assert Strings("zh").t("new session {id}", id="x") == "新会话 x"
    assert Strings("en").t("new session {id}", id="x") == "new session x"


def test_tail_view_shows_newest_lines_of_a_tall_block():
    from ui.views.render import tail_view

    block = "```py\n" + "\n".join(f"line{i}" for i in range(50))
    view = tail_view(block, 10).splitlines()
    assert view[0] == "```py" and view[-1] == "line49" and len(view) == 10
    assert tail_view("short\nblock", 10) == "short\nblock"


def test_tool_line_summaries_fold_whitespace_cut_long_ones_and_name_other_tools_arguments():
    from ui.views.tool_lines import summary
    from ui.words import Strings

    en = Strings("en")
    assert (
        summary("search_files", {"path": "src", "pattern": "def  main"}, en) == '"def main" · src'
    )
    long = summary("terminal", {"command": "x" * 100}, en)
    assert long.endswith("…") and len(long) == 70
    assert summary("mcp__notes__find", {"text": "a b", "n": 2}, en, key="text") == "a b"
    assert summary("mcp__notes__find", {"tags": ["a", "b"], "n": 2}, en) == 'tags=["a", "b"] n=2'
    assert summary("todo", {"todos": "not a list"}, en) == "0/0 done"
    assert summary("write_file", {"path": "a.py", "content": "x\n"}, Strings("zh")) != (
        summary("write_file", {"path": "a.py", "content": "x\n"}, en)
    )
