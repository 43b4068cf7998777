"""Edits a small model can make: a failed edit comes back with the exact lines around its
target and the error; a Python file is syntax-checked after each edit or write, at once."""

from __future__ import annotations

import pytest

from tests.conftest import provider_env, run_cli
from tests.helpers.tool_helpers import make_ctx, run

PRICE = 'def format_price(amount):\n    return "$%d" % amount\n'


@pytest.fixture
def ctx(workspace, isolated_home):
    (workspace / "price.py").write_text(PRICE)
    return make_ctx(workspace, isolated_home)


def test_an_edit_that_breaks_the_syntax_is_not_applied_and_shows_the_lines(ctx, workspace):
    out = run(ctx, "edit_file", path="price.py", old_string="def format_price(amount):",
              new_string="def format_price(amount, 2):")  # fmt: skip
    assert out.is_error and (workspace / "price.py").read_text() == PRICE
    assert out.content == (
        "edit not applied: price.py would no longer parse as Python: SyntaxError: invalid "
        "syntax (line 1)\n>    1\tdef format_price(amount, 2):\n"
        '     2\t    return "$%d" % amount\n     3\t\n'
        "Fix new_string (the file is unchanged) and try again."
    )


def test_a_good_edit_reports_the_check(ctx, workspace):
    out = run(ctx, "edit_file", path="price.py", old_string='"$%d" % amount',
              new_string='f"${amount:.2f}"')  # fmt: skip
    assert not out.is_error and out.content.endswith("\n[Python syntax check: OK]")


def test_a_file_broken_before_may_be_edited_and_says_it_still_fails(ctx, workspace):
    (workspace / "price.py").write_text("def f(:\n    pass\nx = 1\n")
    out = run(ctx, "edit_file", path="price.py", old_string="x = 1", new_string="x = 2")
    assert not out.is_error and "x = 2" in (workspace / "price.py").read_text()
    assert out.content.endswith(
        "[Python syntax check: SyntaxError: invalid syntax (line 1)\n>    1\tdef f(:\n"
        "     2\t    pass\n     3\tx = 2\n     4\t]"
    )


def test_a_written_python_file_is_checked_at_once(ctx, workspace):
    out = run(ctx, "write_file", path="bad.py", content="def g()\n    return 1\n")
    assert not out.is_error and (workspace / "bad.py").exists()
    assert "[Python syntax check: SyntaxError: expected ':' (line 1)" in out.content
    assert ">    1\tdef g()" in out.content
    text = run(ctx, "write_file", path="notes.txt", content="def g()\n")
    assert "syntax" not in text.content


def test_old_string_not_found_in_a_short_file_shows_the_whole_file(ctx):
    out = run(ctx, "edit_file", path="price.py", old_string="class Money:", new_string="x")
    assert out.is_error
    assert out.content == (
        "old_string not found in price.py, and nothing similar. The file is:\n"
        '     1\tdef format_price(amount):\n     2\t    return "$%d" % amount\n     3\t\n'
        "Copy the exact text (indentation included, without the line numbers) into old_string."
    )


def test_through_the_cli_the_model_sees_the_lines_and_its_retry_works(llm, workspace):
    (workspace / "price.py").write_text(PRICE)
    llm.call("edit_file", {"path": "price.py", "old_string": "def format_price(amount):",
                           "new_string": "def format_price(amount, 2):"})  # fmt: skip
    llm.call("edit_file", {"path": "price.py", "old_string": '"$%d" % amount',
                           "new_string": 'f"${amount:.2f}"'})  # fmt: skip
    llm.reply("fixed")
    proc = run_cli("--dir", str(workspace), "-p", "fix it", "--provider", "openai-compatible",
                   "--yes", env=provider_env(llm, "openai-compatible"))  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    tool = [m["content"] for m in llm.requests[1].body["messages"] if m["role"] == "tool"]
    assert tool[0].startswith("edit not applied: price.py would no longer parse as Python")
    assert ">    1\tdef format_price(amount, 2):" in tool[0]
    last = [m["content"] for m in llm.requests[2].body["messages"] if m["role"] == "tool"][-1]
    assert last.endswith("[Python syntax check: OK]")
    assert (
        workspace / "price.py"
    ).read_text() == 'def format_price(amount):\n    return f"${amount:.2f}"\n'
