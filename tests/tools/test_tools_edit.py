"""edit_file: exact replacement, helpful errors, encodings and line endings kept."""

from __future__ import annotations

import pytest

from tests.helpers.tool_helpers import make_ctx, run
from tools.snapshots import undo_turn

SOURCE = """import os


def load(path):
    with open(path) as fh:
        return fh.read()


def save(path, text):
    with open(path, "w") as fh:
        fh.write(text)
"""


@pytest.fixture
def ctx(workspace, isolated_home):
    (workspace / "io_util.py").write_text(SOURCE)
    return make_ctx(workspace, isolated_home)


def test_unique_replacement_returns_diff(ctx, workspace):
    out = run(
        ctx,
        "edit_file",
        path="io_util.py",
        old_string="        return fh.read()",
        new_string="        return fh.read().strip()",
    )
    assert not out.is_error
    assert "-        return fh.read()" in out.content
    assert "+        return fh.read().strip()" in out.content
    assert out.data["added"] == 1 and out.data["removed"] == 1 and out.data["line"] == 6
    assert out.data["path"] == "io_util.py" and out.data["diff"].startswith("--- a/io_util.py")
    assert "fh.read().strip()" in (workspace / "io_util.py").read_text()


def test_absent_old_string_shows_closest_lines(ctx, workspace):
    out = run(
        ctx,
        "edit_file",
        path="io_util.py",
        old_string="def save(path, txt):\n    with open(path, 'w') as fh:",
        new_string="def save(path, text, mode='w'):",
    )
    assert out.is_error
    assert "not found" in out.content and "lines 9-10" in out.content
    assert "     9\tdef save(path, text):" in out.content
    assert '    10\t    with open(path, "w") as fh:' in out.content
    assert (workspace / "io_util.py").read_text() == SOURCE


def test_absent_and_nothing_similar(ctx):
    out = run(
        ctx, "edit_file", path="io_util.py", old_string="zebra crossing quantum", new_string="x"
    )
    assert out.is_error and "nothing similar" in out.content


def test_non_unique_gives_count_and_lines(ctx, workspace):
    out = run(ctx, "edit_file", path="io_util.py", old_string="as fh:", new_string="as f:")
    assert out.is_error
    assert "occurs 2 times" in out.content and "lines 5, 10" in out.content
    assert "replace_all" in out.content
    done = run(
        ctx,
        "edit_file",
        path="io_util.py",
        old_string="as fh:",
        new_string="as f:",
        replace_all=True,
    )
    assert not done.is_error and done.data["replacements"] == 2
    assert (workspace / "io_util.py").read_text().count("as f:") == 2


def test_keeps_crlf_and_gbk(ctx, workspace):
    target = workspace / "notes.txt"
    target.write_bytes("第一行\r\n第二行\r\n第三行\r\n".encode("gbk"))
    out = run(
        ctx,
        "edit_file",
        path="notes.txt",
        old_string="第二行\n第三行",
        new_string="第二行（改）\n第三行",
    )
    assert not out.is_error, out.content
    assert target.read_bytes() == "第一行\r\n第二行（改）\r\n第三行\r\n".encode("gbk")


def test_bad_inputs(ctx, workspace):
    assert (
        "no such file"
        in run(ctx, "edit_file", path="nope.py", old_string="a", new_string="b").content
    )
    assert (
        "write_file"
        in run(ctx, "edit_file", path="io_util.py", old_string="", new_string="b").content
    )
    same = run(ctx, "edit_file", path="io_util.py", old_string="import os", new_string="import os")
    assert same.is_error and "same" in same.content
    (workspace / "d").mkdir()
    assert "directory" in run(ctx, "edit_file", path="d", old_string="a", new_string="b").content


def test_checkpoint_before_edit(ctx, workspace):
    run(ctx, "edit_file", path="io_util.py", old_string="import os", new_string="import sys")
    assert "import sys" in (workspace / "io_util.py").read_text()
    assert undo_turn(ctx).text == "undid turn 0: restored io_util.py"
    assert (workspace / "io_util.py").read_text() == SOURCE


def test_mixed_line_endings_are_left_alone(ctx, workspace):
    target = workspace / "mixed.txt"
    target.write_bytes(b"a\r\nb\nc\r\n")
    out = run(ctx, "edit_file", path="mixed.txt", old_string="b", new_string="B")
    assert not out.is_error
    assert target.read_bytes() == b"a\r\nB\nc\r\n"
