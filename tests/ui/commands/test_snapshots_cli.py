"""/undo, /rewind and /diff in the real REPL: shell-made changes, new and deleted files come
back; the user's .git, index and stash are never touched; the conversation after a rewind is a
valid history on both wires; memory forgets "modified" for a restored file."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from core.memory import MemoryStore
from tests.conftest import provider_env
from tests.helpers.repl_driver import Repl, start_repl, user_texts

APP = "".join(f"line {n}\n" for n in range(1, 9))


def git(project: Path, *args: str) -> str:
    cmd = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", str(project), *args]
    return subprocess.run(cmd, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def project(workspace: Path) -> Path:
    (workspace / "app.py").write_text(APP)
    (workspace / "README.md").write_text("# demo\n")
    (workspace / ".gitignore").write_text("*.log\n")
    (workspace / "keep.log").write_text("ignored, never snapshotted\n")
    git(workspace, "init", "-q")
    git(workspace, "add", "-A")
    git(workspace, "commit", "-qm", "init")
    (workspace / "README.md").write_text("# demo, staged\n")
    git(workspace, "add", "README.md")  # a staged change the snapshots must leave staged
    return workspace


def test_undo_takes_back_the_whole_last_turn(llm, project, isolated_home):
    index_before = (project / ".git" / "index").read_bytes()
    llm.call("write_file", {"path": "notes.md", "content": "one\ntwo\nthree\nfour\nfive\nsix\n"})
    llm.reply("wrote notes")
    shell = "sed -i s/line/LINE/ app.py && rm README.md && mkdir -p pkg && echo new > pkg/new.py"
    llm.call("terminal", {"command": shell + " && echo log >> keep.log"})
    llm.call("write_file", {"path": "notes.md", "content": "rewritten\n"})  # same turn, 2nd step
    llm.reply("changed by shell")
    llm.reply("noted")
    repl = start_repl(llm, project, "--permission-mode", "yolo")
    try:
        repl.send("write notes")
        repl.expect("wrote notes")
        repl.prompt()
        repl.send("change things")
        repl.expect("changed by shell")
        repl.prompt()
        repl.send("just a question")  # a turn without file changes is not counted
        repl.expect("noted")
        repl.prompt()
        repl.command("/diff stat", r"D README\.md")
        repl.command(
            "/undo",
            r"Undid turn 2: 3 files restored \(README\.md, app\.py, notes\.md\); "
            r"1 new file removed \(pkg/new\.py\)",
        )
        assert (project / "app.py").read_text() == APP
        assert (project / "README.md").read_text() == "# demo, staged\n"
        assert not (project / "pkg").exists()
        assert (project / "keep.log").read_text().endswith("log\n")  # ignored: left alone
        assert (project / "notes.md").read_text().startswith("one\n")  # turn 1's version
        repl.command("/undo", r"Undid turn 1: 1 new file removed \(notes\.md\)")
        assert not (project / "notes.md").exists()
        repl.command("/undo", r"nothing to undo: no turn of this session changed files")
        repl.command("/undo two", r"/undo: 'two' is not a number of turns")
        repl.command("/undo 0", r"/undo: '0' is not a number of turns")
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    assert (project / ".git" / "index").read_bytes() == index_before
    assert git(project, "status", "--short") == "M  README.md\n"
    assert git(project, "stash", "list") == ""


def test_undo_n_turns_tells_the_model_and_memory_forgets_modified(llm, project, isolated_home):
    llm.call("write_file", {"path": "app.py", "content": APP + "line 9\n"})
    llm.reply("edited app")
    llm.call("terminal", {"command": "echo extra >> app.py && touch other.txt"})
    llm.reply("appended")
    llm.reply("I see")
    repl = start_repl(llm, project, "--permission-mode", "yolo")
    try:
        repl.send("edit app")
        repl.expect("edited app")
        repl.prompt()
        entry = MemoryStore(isolated_home, project).find("file:app.py", "project")
        assert entry is not None and entry[1].meta["modified"]
        repl.send("append")
        repl.expect("appended")
        repl.prompt()
        repl.send("/undo 3")
        repl.expect(r"Undid turn 2: 1 file restored \(app\.py\); 1 new file removed \(other")
        repl.expect(r"Undid turn 1: 1 file restored \(app\.py\)")
        repl.expect(r"only 2 turn\(s\) had file changes; all of them are undone")
        repl.prompt()
        assert (project / "app.py").read_text() == APP and not (project / "other.txt").exists()
        entry = MemoryStore(isolated_home, project).find("file:app.py", "project")
        assert entry is not None and not entry[1].meta["modified"]
        assert "modified" not in entry[1].content
        repl.send("what now?")
        repl.expect("I see")
        repl.prompt()
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    told = user_texts(llm.requests[-1].body)
    assert told[-1] == "what now?"
    assert told[-2].startswith("[The user ran /undo: undid turn 2: restored app.py; removed other")
    assert "undid turn 1: restored app.py" in told[-2]


def test_undo_refuses_over_later_edits_and_answers_in_chinese(llm, project, isolated_home):
    llm.call("write_file", {"path": "a.py", "content": "a = 1\n"})
    llm.call("terminal", {"command": "sed -i s/line/LINE/ app.py"})
    llm.reply("done")
    repl = start_repl(llm, project, "--permission-mode", "yolo", "--lang", "zh")
    try:
        repl.send("two files")
        repl.expect("done")
        repl.prompt()
        (project / "app.py").write_text("by hand\n")
        repl.command("/undo", r"未撤销：app\.py 在第 1 轮之后又被改动；/undo force 会覆盖这些改动")
        assert (project / "a.py").is_file() and (project / "app.py").read_text() == "by hand\n"
        repl.command(
            "/undo force", r"已撤销第 1 轮：恢复 1 个文件（app\.py）；删除 1 个新文件（a\.py）"
        )
        assert (project / "app.py").read_text() == APP and not (project / "a.py").exists()
        repl.command("/undo", r"没有可撤销的改动")
        repl.command("/undo x", r"/undo：'x' 不是轮数")
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()


def _tool_pairs_ok(body: dict) -> bool:
    """Every tool call in a request has its result right after it (either wire)."""
    messages = body["messages"]
    for i, msg in enumerate(messages):
        if msg["role"] != "assistant":
            continue
        calls = {c["id"] for c in msg.get("tool_calls") or []}  # OpenAI
        if isinstance(msg.get("content"), list):  # Anthropic
            calls |= {b["id"] for b in msg["content"] if b.get("type") == "tool_use"}
        answered: set[str] = set()
        for nxt in messages[i + 1 :]:
            if nxt["role"] == "tool":
                answered.add(nxt["tool_call_id"])
                continue
            if isinstance(nxt.get("content"), list):
                answered |= {b.get("tool_use_id") for b in nxt["content"]}
            break
        if calls - answered:
            return False
    return True


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_rewind_restores_files_and_conversation(llm, project, isolated_home, provider):
    llm.call("terminal", {"command": "echo first > first.txt"})
    llm.reply("turn one done")
    llm.call("terminal", {"command": "rm app.py && echo second > second.txt"})
    llm.reply("turn two done")
    llm.reply("after the rewind")
    repl = start_repl(llm, project, "--permission-mode", "yolo", provider=provider)
    try:
        repl.send("turn one")
        repl.expect("turn one done")
        repl.prompt()
        repl.send("turn two")
        repl.expect("turn two done")
        repl.prompt()
        repl.command("/rewind 2 both", r"conversation back to before turn 2")
        assert (project / "app.py").read_text() == APP and not (project / "second.txt").exists()
        assert (project / "first.txt").is_file()  # turn one's work stays
        repl.send("again")
        repl.expect("after the rewind")
        repl.prompt()
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    body = llm.requests[-1].body
    texts = user_texts(body)
    assert "turn two" not in texts and "turn one" in texts and texts[-1] == "again"
    assert _tool_pairs_ok(body)


def test_undo_takes_back_a_sub_agents_edits_with_its_turn(llm, project):
    llm.call("task", {"prompt": "add a helper", "description": "helper"})
    llm.call("write_file", {"path": "helper.py", "content": "def h():\n    return 1\n"})  # child
    llm.reply("REPORT: wrote helper.py")  # the child's report
    llm.call("terminal", {"command": "echo '# uses helper' >> app.py"})  # the parent again
    llm.reply("helper added")
    repl = start_repl(llm, project, "--permission-mode", "yolo")
    try:
        repl.send("add a helper")
        repl.expect("helper added")
        repl.prompt()
        assert (project / "helper.py").is_file()
        repl.command(
            "/undo", r"Undid turn 1: 1 file restored \(app\.py\); 1 new file removed \(helper\.py\)"
        )
        assert not (project / "helper.py").exists() and (project / "app.py").read_text() == APP
    finally:
        repl.close()


def test_undo_by_turn_from_checkpoints_when_git_is_missing(llm, workspace, tmp_path):
    """No git on PATH: no snapshot can be made, so each edit keeps a per-file checkpoint, and
    /undo still takes back the whole turn."""
    (workspace / "a.py").write_text("a = 1\n")
    llm.call("write_file", {"path": "a.py", "content": "a = 2\n"})
    llm.call("write_file", {"path": "b.py", "content": "b = 1\n"})
    llm.reply("both written")
    no_git = tmp_path / "bin"
    no_git.mkdir()
    env = {**provider_env(llm, "anthropic"), "PATH": str(no_git)}
    repl = Repl(
        "--dir", str(workspace), "--provider", "anthropic", "--permission-mode", "yolo", env=env
    )
    try:
        repl.prompt()
        repl.send("edit two files")
        repl.expect("both written")
        repl.prompt()
        assert (workspace / "b.py").is_file()
        repl.command(
            "/undo", r"Undid turn 1: 1 file restored \(a\.py\); 1 new file removed \(b\.py\)"
        )
        assert (workspace / "a.py").read_text() == "a = 1\n" and not (workspace / "b.py").exists()
        repl.command("/undo", r"nothing to undo")
    finally:
        repl.close()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_undo_line_reads_in_the_ui_language(lang):
    from tools.restored import Restored, turn_text
    from ui.commands.undo import undo_line
    from ui.words.strings import Strings

    s = Strings(lang)
    failed = undo_line(s, Restored("snapshot skipped: git not found", done=False))
    unnumbered = undo_line(s, Restored(turn_text(0, ["a.py"], []), ["a.py"], turn=0))
    if lang == "zh":
        assert failed.startswith("警告：未能建立快照") and "git not found" in failed
        assert "a.py" in unnumbered and not any(w in unnumbered for w in ("undid", "restored"))
    else:
        assert failed == "warning: snapshot skipped: git not found"
        assert "a.py" in unnumbered
