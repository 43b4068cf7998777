"""One fact per tool call, by rules: every tool and every kind of shell command."""

from __future__ import annotations

import pytest

from core.facts import RULES, extract
from my_agent.facts import Fact
from my_agent.messages import ToolCall
from tools.base import ToolContext, ToolOutput
from tools.registry import Registry

AUTH_PY = "class Auth:\n    def login(self):\n        pass\n\n    def logout(self):\n        pass\n"


def fact(tool: str, args: dict, content: str, is_error: bool = False, **data) -> Fact:
    return extract(ToolCall("c1", tool, args), ToolOutput(content, is_error, data))


def shell(command: str, output: str, code: int = 0) -> Fact:
    return fact(
        "terminal", {"command": command}, f"{output}\n[exit {code}]", code != 0, exit_code=code
    )


def test_read_file_through_the_real_tool(tmp_path):
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "auth.py").write_text(AUTH_PY)
    ctx = ToolContext(workspace=tmp_path, home=tmp_path / "home")
    call = ToolCall("c1", "read_file", {"path": "core/auth.py"})
    f = extract(call, Registry.default().execute("read_file", call.arguments, ctx))
    assert f.kind == "read" and f.path == "core/auth.py" and f.ok
    assert f.render() == (
        "[read_file] core/auth.py (6 lines, Python: class Auth (l.1), "
        "def login (l.2), def logout (l.5))"
    )


def test_write_edit_and_failures_of_file_tools():
    w = fact(
        "write_file",
        {"path": "app.py", "content": "def main():\n    pass\n"},
        "created app.py (2 lines)",
        path="app.py",
    )
    assert (w.kind, w.path) == ("write", "app.py") and "created" in w.summary
    assert "def main (l.1)" in w.summary
    e = fact(
        "edit_file",
        {"path": "app.py", "old_string": "pass", "new_string": "run()\nexit()"},
        "edited app.py",
        path="app.py",
        diff="@@ -2,1 +2,2 @@\n-    pass\n+    run()\n",
    )
    assert e.kind == "edit" and e.summary == "-1 +2 lines at l.2"
    missing = fact("read_file", {"path": "nope.py"}, "nope.py: no such file", is_error=True)
    assert not missing.ok and missing.render() == "[read_file] FAIL nope.py (nope.py: no such file)"


def test_search_list_web_clarify_recall_memory():
    s = fact(
        "search_files",
        {"pattern": "def login"},
        "core/auth.py:2:    def login(self):\napi/views.py:40:def login(request):",
        matches=2,
    )
    assert s.kind == "search" and "core/auth.py:2" in s.summary and "api/views.py:40" in s.summary
    assert s.summary.startswith("2 matches")
    ls = fact("list_files", {"path": "src"}, "src/a.py\nsrc/b.py\nsrc/pkg/")
    assert ls.kind == "list" and ls.summary.startswith("3 entries: src/a.py")
    ws = fact(
        "web_search",
        {"query": "python 3.13 release"},
        "1. Python 3.13 https://www.python.org/downloads/\n2. News https://lwn.net/a",
    )
    assert ws.kind == "web" and "python.org" in ws.summary and "lwn.net" in ws.summary
    wr = fact("web_read", {"url": "https://docs.python.org/3/"}, "# Python docs\nWelcome")
    assert wr.kind == "web" and "Python docs" in wr.summary
    ask = fact("clarify", {"question": "Which database?"}, "PostgreSQL")
    assert ask.kind == "ask" and ask.summary == "answer: PostgreSQL"
    rc = fact("recall", {"id": "a3"}, "[#a3 terminal pytest]\nlots of text")
    assert rc.kind == "recall" and rc.target == "a3"
    mem = fact("memory", {"action": "add", "text": "use uv, not pip"}, "saved memory m4")
    assert mem.kind == "memory" and "use uv" in mem.target


@pytest.mark.parametrize(
    "command",
    [
        "cat core/auth.py",
        "head -n 20 core/auth.py",
        "tail core/auth.py",
        "nl core/auth.py",
        "cd /repo && cat core/auth.py | head -50",
    ],
)
def test_shell_reads(command):
    f = shell(command, AUTH_PY)
    assert f.kind == "read" and f.path == "core/auth.py"
    assert "class Auth (l.1)" in f.summary and "def logout (l.5)" in f.summary


def test_sed_n_keeps_real_line_numbers():
    f = shell("sed -n '120,125p' core/auth.py", AUTH_PY)
    assert f.kind == "read" and "lines 120-125" in f.summary and "def login (l.121)" in f.summary


@pytest.mark.parametrize(
    "command,output,expected",
    [
        (
            "grep -rn 'def login' .",
            "./core/auth.py:2:    def login(self):\n./api/v.py:40:def login():",
            "./core/auth.py:2 `def login(self):`",
        ),
        ("rg -n login core", "core/auth.py:2:    def login(self):", "core/auth.py:2"),
        (
            "find . -name '*.py'",
            "./core/auth.py\n./api/v.py",
            "2 entries: ./core/auth.py, ./api/v.py",
        ),
        ("ls src", "a.py\nb.py", "2 entries: a.py, b.py"),
    ],
)
def test_shell_searches(command, output, expected):
    f = shell(command, output)
    assert f.kind == "search" and expected in f.summary


@pytest.mark.parametrize(
    "command,path",
    [
        ("sed -i 's/old/new/' core/auth.py", "core/auth.py"),
        ("cat > notes.md <<'EOF'\n# Notes\nline\nEOF", "notes.md"),
        ("echo 'x = 1' | tee config.py", "config.py"),
        ("echo hello > out.txt", "out.txt"),
    ],
)
def test_shell_writes(command, path):
    f = shell(command, "")
    assert f.kind == "write" and f.path == path
    assert "Notes" not in f.target  # heredoc bodies never reach the one-liner


@pytest.mark.parametrize(
    "command,output,summary",
    [
        (
            "pytest -q",
            "..F.F\nFAILED tests/test_auth.py::test_login - assert 0\n"
            "FAILED tests/test_auth.py::test_logout - KeyError\n==== 2 failed, 3 passed in 0.2s ====",
            "exit 1, 2 failed, 3 passed: test_auth.py::test_login, test_auth.py::test_logout",
        ),
        (
            "npm test",
            "Tests:       1 failed, 4 passed, 5 total\n  ✕ renders header (5 ms)",
            "exit 1, 1 failed, 4 passed: renders header",
        ),
        (
            "go test ./...",
            "--- FAIL: TestParse (0.00s)\n--- PASS: TestLex (0.00s)\nFAIL",
            "exit 1, 1 failed, 1 passed: TestParse",
        ),
        (
            "cargo test",
            "test parse::works ... FAILED\ntest result: FAILED. 7 passed; 1 failed; 0 ignored",
            "exit 1, 1 failed, 7 passed: parse::works",
        ),
        (
            "make test",
            "Ran 4 tests in 0.01s\n\nFAIL: test_add (tests.test_math.MathTest)\n"
            "FAILED (failures=1)",
            "exit 1, 1 failed, 3 passed: MathTest.test_add",
        ),
    ],
)
def test_shell_tests_parse_counts_and_failing_names(command, output, summary):
    f = shell(command, output, code=1)
    assert f.kind == "test" and not f.ok
    assert f.summary == summary
    assert f.render().startswith(f"[terminal] FAIL {command} → exit 1")


def test_passing_tests_git_and_runs():
    ok = shell("python -m pytest tests -q", "===== 12 passed in 1.1s =====")
    assert ok.ok and ok.summary == "exit 0, 12 passed" and ok.details["passed"] == 12
    diff = shell(
        "git diff", "diff --git a/x.py b/x.py\n--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-a\n+b"
    )
    assert diff.kind == "git" and diff.summary == "1 files changed (+1 -1): x.py"
    status = shell("git status --short", " M core/auth.py\n?? new.py")
    assert status.kind == "git" and "core/auth.py" in status.summary
    run = shell("python script.py", "result: 42")
    assert run.kind == "run" and run.path == "script.py" and run.summary == "exit 0, result: 42"


def test_failures_keep_the_first_meaningful_error_line():
    trace = (
        'Traceback (most recent call last):\n  File "script.py", line 3, in <module>\n'
        "    main()\nNameError: name 'main' is not defined"
    )
    f = shell("python script.py", trace, code=1)
    assert not f.ok and f.summary == "exit 1: NameError: name 'main' is not defined"
    missing = shell("cat nope.txt", "cat: nope.txt: No such file or directory", code=1)
    assert not missing.ok and "No such file" in missing.summary


def test_extension_point_and_rule_bugs_never_break_a_call():
    def frob(call: ToolCall, output: ToolOutput) -> Fact:
        return Fact(tool=call.name, kind="other", target="frob", summary="custom")

    def broken(call: ToolCall, output: ToolOutput) -> Fact:
        raise RuntimeError("rule bug")

    rules = {**RULES, "frobnicate": frob, "broken_tool": broken}
    custom = extract(ToolCall("c1", "frobnicate", {}), ToolOutput("x"), rules)
    assert custom.summary == "custom"
    assert "frobnicate" not in RULES  # the shipped table is not changed by a caller's rows
    failed = extract(
        ToolCall("c2", "broken_tool", {"a": "b"}), ToolOutput("first line\nsecond"), rules
    )
    assert failed.summary == "first line"
