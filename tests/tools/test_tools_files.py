"""read_file and write_file through the registry, as the agent calls them."""

from __future__ import annotations

import pytest

from tests.helpers.tool_helpers import make_ctx, run
from tools.snapshots import get_snapshots, undo_turn
from ui.words.strings import Strings


@pytest.fixture
def ctx(workspace, isolated_home):
    return make_ctx(workspace, isolated_home)


def test_read_numbers_lines_and_pages(ctx, workspace):
    (workspace / "a.py").write_text("".join(f"line {i}\n" for i in range(1, 11)))
    out = run(ctx, "read_file", path="a.py", offset=3, limit=2)
    assert not out.is_error
    assert out.content.splitlines()[:2] == ["     3\tline 3", "     4\tline 4"]
    assert "read on with offset=5" in out.content
    assert out.data == {
        "path": "a.py",
        "lines": 10,
        "encoding": "utf-8",
        "offset": 3,
        "shown": [3, 4],
        "truncated": True,
    }
    whole = run(ctx, "read_file", path="a.py")
    assert "offset=" not in whole.content and whole.content.count("\n") == 9


def test_read_caps_output_size(ctx, workspace):
    (workspace / "big.txt").write_text(("x" * 99 + "\n") * 5000)
    out = run(ctx, "read_file", path="big.txt")
    assert len(out.content.encode()) < 110_000
    assert "output size cap" in out.content and "read on with offset=" in out.content


def test_read_bad_inputs(ctx, workspace):
    (workspace / "folder").mkdir()
    (workspace / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(3000))
    (workspace / "blob.bin").write_bytes(b"abc\0def" * 10)
    missing = run(ctx, "read_file", path="nope.py")
    assert missing.is_error and "no such file" in missing.content
    folder = run(ctx, "read_file", path="folder")
    assert folder.is_error and "directory" in folder.content and "list_files" in folder.content
    png = run(ctx, "read_file", path="img.png")
    assert "is an image (2.9 KB); this model does not accept images" in png.content
    blob = run(ctx, "read_file", path="blob.bin")
    assert blob.is_error and "binary" in blob.content and "70 B" in blob.content
    (workspace / "three.txt").write_text("a\nb\nc\n")
    past = run(ctx, "read_file", path="three.txt", offset=9)
    assert past.is_error and "past the end" in past.content and "3 lines" in past.content
    assert run(ctx, "read_file", path="three.txt", offset=0).is_error  # below the minimum


def test_read_gbk_names_encoding(ctx, workspace):
    (workspace / "cn.txt").write_bytes("你好，世界\n第二行\n".encode("gbk"))
    out = run(ctx, "read_file", path="cn.txt")
    assert not out.is_error
    assert "[encoding: gb18030]" in out.content and "你好，世界" in out.content
    assert out.data["encoding"] == "gb18030"
    (workspace / "latin.txt").write_bytes(b"caf\xe9 \x81\xff\n")
    assert run(ctx, "read_file", path="latin.txt").data["encoding"] == "latin-1"


def test_write_creates_parents_and_reports_changes(ctx, workspace):
    out = run(ctx, "write_file", path="pkg/sub/m.txt", content="a\nb\nc\n")
    assert not out.is_error and out.content == "created pkg/sub/m.txt (3 lines)"
    (workspace / "pkg/sub/m.txt").rename(workspace / "pkg/sub/m.py")
    assert (workspace / "pkg/sub/m.py").read_text() == "a\nb\nc\n"
    over = run(ctx, "write_file", path="pkg/sub/m.py", content="a\nB\nc\nd\n")
    assert over.content == "overwrote pkg/sub/m.py (4 lines, +2 -1)\n[Python syntax check: OK]"
    assert over.data["added"] == 2 and over.data["removed"] == 1
    app = run(ctx, "write_file", path="pkg/sub/m.py", content="e\n", append=True)
    assert app.content.startswith("appended 1 lines")
    assert (workspace / "pkg/sub/m.py").read_text() == "a\nB\nc\nd\ne\n"
    assert not [p for p in (workspace / "pkg/sub").iterdir() if p.name.endswith(".tmp")]


def test_write_keeps_encoding_and_line_endings(ctx, workspace):
    target = workspace / "win.txt"
    target.write_bytes("旧的\r\n内容\r\n".encode("gbk"))
    run(ctx, "write_file", path="win.txt", content="新的\n内容\n")
    assert target.read_bytes() == "新的\r\n内容\r\n".encode("gbk")


def test_write_to_directory_is_refused(ctx, workspace):
    (workspace / "d").mkdir()
    out = run(ctx, "write_file", path="d", content="x")
    assert out.is_error and "directory" in out.content


def test_snapshot_taken_around_every_write(ctx, workspace):
    snaps = get_snapshots(ctx)
    for text, append in (("one\n", False), ("two\n", False), ("three\n", True)):
        snaps.begin_turn()
        run(ctx, "write_file", path="f.txt", content=text, append=append)
    assert len(snaps.steps) == 3
    assert undo_turn(ctx).text == "undid turn 3: restored f.txt"
    assert (workspace / "f.txt").read_text() == "two\n"
    assert undo_turn(ctx).text == "undid turn 2: restored f.txt"
    assert (workspace / "f.txt").read_text() == "one\n"
    assert undo_turn(ctx).text == "undid turn 1: removed f.txt"
    assert not (workspace / "f.txt").exists()
    assert undo_turn(ctx) is None


def test_append_to_a_binary_file_is_refused_and_changes_nothing(ctx, workspace):
    data = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    (workspace / "img.png").write_bytes(data)
    out = run(ctx, "write_file", path="img.png", content="text\n", append=True)
    assert out.is_error and "binary" in out.content
    assert (workspace / "img.png").read_bytes() == data


def test_a_missing_file_names_the_project_files_of_that_name(ctx, workspace):
    (workspace / "tests").mkdir()
    (workspace / "tests" / "test_squares.py").write_text("x = 1\n")
    doubled = str(workspace / workspace.name / "test" / "test_squares.py")  # a guessed path
    read = run(ctx, "read_file", path=doubled)
    assert read.is_error and read.content.endswith(
        "test_squares.py: no such file; the project has tests/test_squares.py"
    )
    edit = run(ctx, "edit_file", path="test/test_squares.py", old_string="x", new_string="y")
    assert (
        edit.content == "test/test_squares.py: no such file; the project has tests/test_squares.py"
    )
    said = Strings("zh").line(edit.content)
    assert said == "test/test_squares.py：没有这个文件；项目里有 tests/test_squares.py"
    none = run(ctx, "read_file", path="other.py")
    assert none.content == "other.py: no such file"


def test_an_empty_edits_list_beside_one_pair_is_the_pair(ctx, workspace):
    """A small model fills in every property of the schema (seen with Qwen2.5-Coder-1.5B)."""
    (workspace / "a.py").write_text("x = 1\n")
    out = run(ctx, "edit_file", path="a.py", old_string="x = 1", new_string="x = 2", edits=[])
    assert not out.is_error and (workspace / "a.py").read_text() == "x = 2\n"
