"""The line layout of memory files: lazy loads, lines kept byte for byte, bad lines set aside."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.memory import MemoryEntry, MemoryStore, rank
from ui.words import Strings

HEAD, TAIL = '{"version":1,"entries":[', "]}"


def write_layout(store: MemoryStore, lines: list[str]) -> Path:
    path = store.file("project").path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEAD + "\n" + ",\n".join(lines) + "\n" + TAIL + "\n", encoding="utf-8")
    return path


def body(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    assert lines[0] == HEAD and lines[-2:] == [TAIL, ""]
    return [line.removesuffix(",") for line in lines[1:-2]]


def line(key: str, content: str, **extra: object) -> str:
    row = {
        "key": key,
        "type": "notes",
        "content": content,
        "id": key,
        "created": 1.0,
        "updated": 2.0,
        **extra,
    }
    return json.dumps(row, ensure_ascii=False, separators=(",", ":"))


ODD = '{"key":"odd","type":"notes", "content" : "spaced out",  "id":"o","updated":2.0}'


def test_a_change_rewrites_only_the_entries_it_touches(isolated_home: Path, workspace: Path):
    store = MemoryStore(isolated_home, workspace)
    path = write_layout(store, [line("a", "first"), ODD, line("c", "数据库 third", x={"y": 1})])
    before = body(path)
    store.count_hits("project", ["c"])
    after = body(path)
    assert after[:2] == before[:2]  # untouched: not even re-encoded (ODD keeps its spaces)
    assert json.loads(after[2])["hits"] == 1 and json.loads(after[2])["x"] == {"y": 1}
    assert "数据库" in after[2]  # CJK stays readable in the file
    MemoryStore(isolated_home, workspace).add("project", "notes", "a new one", key="d")
    assert body(path)[:3] == after and json.loads(body(path)[3])["content"] == "a new one"
    fresh = MemoryStore(isolated_home, workspace).entries("project")
    assert [(e.key, e.content, e.hits) for _, e in fresh] == [
        ("a", "first", 0),
        ("odd", "spaced out", 0),
        ("c", "数据库 third", 1),
        ("d", "a new one", 0),
    ]


@pytest.mark.parametrize(
    "bad",
    [
        '{"key":"bad","type":"notes","content":"cut off',  # unreadable JSON
        '{"key":"bad","type":"notes","content":"x","id":"b","updated":"soon","hits":[]}',  # no repair
    ],
)
def test_an_unreadable_line_is_kept_aside_with_a_warning(
    isolated_home: Path, workspace: Path, bad: str
):
    store = MemoryStore(isolated_home, workspace)
    path = write_layout(store, [line("a", "first"), bad, line("c", "third")])
    store.add("project", "notes", "added without reading the others", key="d")
    assert body(path)[1] == bad  # a change that does not touch it keeps it as it was
    assert store.take_warnings() == []
    reader = MemoryStore(isolated_home, workspace)
    assert [e.key for _, e in reader.entries("project")] == ["a", "c", "d"]
    (warning,) = reader.take_warnings()
    assert "1 unreadable entry kept as memory.json.corrupt-" in warning
    (aside,) = path.parent.glob("memory.json.corrupt-*")
    assert (
        Strings("zh").line(warning) == f"记忆文件 {path}：1 条记录无法读取，已另存为 {aside.name}"
    )
    assert aside.read_text(encoding="utf-8") == bad + "\n"  # byte for byte
    assert [json.loads(x)["key"] for x in body(path)] == ["a", "c", "d"]  # saved without it
    again = MemoryStore(isolated_home, workspace)
    assert len(again.entries("project")) == 3 and again.take_warnings() == []
    assert len(list(path.parent.glob("memory.json.corrupt-*"))) == 1  # set aside once


@pytest.mark.parametrize(
    "bad",
    [
        '{"key":"bad","type":"notes","content":"x" oops}',
        # valid JSON, but a second "key" (the last one counts) disagrees with the line's start
        '{"key":"bad","type":"notes","content":"x","id":"b","updated":1,"key":"other"}',
    ],
)
def test_a_change_that_reaches_an_unreadable_line_sets_it_aside(
    isolated_home: Path, workspace: Path, bad: str
):
    store = MemoryStore(isolated_home, workspace)
    path = write_layout(store, [line("a", "first"), bad])
    what, _ = store.add("project", "notes", "first")  # near-duplicate test reads every entry
    assert what == "updated"
    (warning,) = store.take_warnings()
    assert "unreadable entry kept as" in warning
    assert [json.loads(x)["key"] for x in body(path)] == ["a"]
    (aside,) = path.parent.glob("memory.json.corrupt-*")
    assert aside.read_text(encoding="utf-8") == bad + "\n"


def test_lines_written_by_hand_are_read_and_rewritten_in_our_order(
    isolated_home: Path, workspace: Path
):
    (workspace / "src").mkdir()
    (workspace / "src" / "kept.py").write_text("x = 1\n")
    store = MemoryStore(isolated_home, workspace)
    rows = [
        {
            "content": 'quote " in key',
            "key": 'say "hi"',
            "type": "notes",
            "id": "1",
            "updated": 1.0,
        },
        {
            "type": "conventions",
            "key": "convention:gone",
            "content": "c",
            "id": "2",
            "updated": 1.0,
            "meta": {"text": "t", "path": "src/gone.py"},
        },
        {
            "type": "files",
            "key": "file:src/kept.py",
            "content": "k",
            "id": "3",
            "updated": 1.0,
            "meta": {"lines": 1, "path": "src/kept.py"},
        },
    ]
    path = write_layout(store, [json.dumps(r) for r in rows])
    store.count_hits("project", ['say "hi"'])  # a lazy load: the gone file's entry is dropped
    lines = body(path)
    assert [json.loads(x)["key"] for x in lines] == ['say "hi"', "file:src/kept.py"]
    assert lines[0].startswith('{"key":"say \\"hi\\"","type":"notes",')
    assert lines[1] == json.dumps(rows[2])  # unchanged: kept as written
    (workspace / "src" / "kept.py").unlink()
    assert [e.key for _, e in MemoryStore(isolated_home, workspace).entries()] == ['say "hi"']


def test_lines_of_the_older_writer_get_their_path_first(isolated_home: Path, workspace: Path):
    (workspace / "setup.cfg").write_text("[flake8]\n")
    store = MemoryStore(isolated_home, workspace)
    old = {
        "key": "convention:lint",
        "type": "conventions",
        "content": "flake8 (setup.cfg)",
        "id": "1",
        "created": 1.0,
        "updated": 1.0,
        "meta": {"text": "flake8 (setup.cfg)", "path": "setup.cfg"},
    }
    path = write_layout(store, [json.dumps(old, separators=(",", ":")), line("n", "note")])
    store.count_hits("project", ["n"])
    lines = body(path)
    assert lines[0].startswith(
        '{"key":"convention:lint","type":"conventions","meta":{"path":"setup.cfg","text":'
    )
    assert json.loads(lines[0]) == old


def test_files_entries_start_with_their_path_and_vanish_with_the_file(
    isolated_home: Path, workspace: Path
):
    (workspace / "app.py").write_text("x = 1\n")
    store = MemoryStore(isolated_home, workspace)
    store.merge(
        "project",
        [
            MemoryEntry(
                "file:app.py", "files", "app.py: Python", meta={"lines": 1, "path": "app.py"}
            ),
            MemoryEntry("note:x", "notes", "x"),
        ],
    )
    path = store.file("project").path
    assert body(path)[0].startswith(
        '{"key":"file:app.py","type":"files","meta":{"path":"app.py","lines":1}'
    )
    (workspace / "app.py").unlink()
    MemoryStore(isolated_home, workspace).count_hits("project", ["note:x"])
    assert [json.loads(x)["key"] for x in body(path)] == ["note:x"]


def test_ranking_sees_a_changed_entry(isolated_home: Path, workspace: Path):
    store = MemoryStore(isolated_home, workspace)
    write_layout(store, [line("a", "alpha words"), line("b", "beta words")])
    entries = [e for _, e in store.entries("project")]
    assert rank(entries, "beta", k=1, now=3.0)[0].key == "b"
    entries[0].content = "now about beta and BETA"
    assert rank(entries, "beta", k=1, now=3.0)[0].key == "a"
    entries[0].tags = ["gamma"]
    assert rank(entries, "gamma", k=1, now=3.0)[0].key == "a"


def test_an_unreadable_line_replaced_by_a_change_is_still_kept(
    isolated_home: Path, workspace: Path
):
    store = MemoryStore(isolated_home, workspace)
    bad = '{"key":"k","type":"notes","content":"x" oops}'
    path = write_layout(store, [bad, line("a", "first")])
    store.merge("project", [MemoryEntry("k", "notes", "a fresh entry for k")])
    assert [json.loads(x)["content"] for x in body(path)] == ["a fresh entry for k", "first"]
    (aside,) = path.parent.glob("memory.json.corrupt-*")
    assert aside.read_text(encoding="utf-8") == bad + "\n"
    assert "unreadable entry kept as" in store.take_warnings()[0]


def test_the_warning_reads_in_chinese_when_the_home_has_a_space(tmp_path: Path, workspace: Path):
    home = tmp_path / "My Home"
    store = MemoryStore(home, workspace)
    path = write_layout(
        store,
        [line("a", "first"), '{"key":"bad","type":"notes","content":"cut off', line("c", "third")],
    )
    reader = MemoryStore(home, workspace)
    assert [e.key for _, e in reader.entries("project")] == ["a", "c"]
    (warning,) = reader.take_warnings()
    (aside,) = path.parent.glob("memory.json.corrupt-*")
    assert (
        " " in str(path)
        and Strings("zh").line(warning)
        == f"记忆文件 {path}：1 条记录无法读取，已另存为 {aside.name}"
    )


def test_a_file_that_cannot_be_moved_aside_warns_once_and_stays_as_it_was(
    isolated_home: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
):
    path = MemoryStore(isolated_home, workspace).file("project").path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b'{"version":1,"entries":[{not json')
    real = os.replace

    def stuck(src, dst, *args, **kwargs):  # a folder the user cannot change (chattr +i, say)
        if Path(src) == path:
            raise PermissionError(1, "Operation not permitted")
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", stuck)
    store = MemoryStore(isolated_home, workspace)
    assert store.entries("project") == [] and store.entries("project") == []
    (warning,) = store.take_warnings()
    assert "could not be moved aside" in warning and "memory is off" in warning
    assert path.read_bytes() == b'{"version":1,"entries":[{not json'
