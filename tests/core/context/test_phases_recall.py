"""Phase transitions from tool activity; the L2 archive and the recall tool."""

from __future__ import annotations

import json

from core.context import Archive, PhaseTracker, TaskPhase, archive_path
from my_agent.facts import Fact
from tools.base import ToolContext
from tools.registry import Registry
from tools.services import ToolServices


def test_phases_follow_what_the_tools_do():
    tracker = PhaseTracker()
    steps = [
        (Fact("read_file", "read", "a.py"), TaskPhase.PLANNING),
        (Fact("terminal", "search", "grep -n x ."), TaskPhase.PLANNING),
        (Fact("terminal", "test", "pytest", ok=False), TaskPhase.PLANNING),  # before any change
        (Fact("edit_file", "edit", "a.py"), TaskPhase.EXECUTING),
        (Fact("read_file", "read", "b.py"), TaskPhase.EXECUTING),
        (Fact("terminal", "test", "pytest", ok=False), TaskPhase.VERIFYING),
        (Fact("edit_file", "edit", "a.py"), TaskPhase.EXECUTING),  # fix after a failing test
        (Fact("terminal", "run", "python a.py"), TaskPhase.VERIFYING),
        (
            Fact("edit_file", "edit", "a.py", ok=False),
            TaskPhase.VERIFYING,
        ),  # failed edit: no change
    ]
    for fact, phase in steps:
        assert tracker.update(fact) is phase, fact
    assert tracker.rules.protect_kinds  # verifying protects the failure being worked on


def _ctx(tmp_path, archive: Archive | None) -> ToolContext:
    return ToolContext(
        workspace=tmp_path, home=tmp_path / "home", services=ToolServices(archive=archive)
    )


def test_recall_by_id_and_by_query(tmp_path):
    archive = Archive()
    first = archive.add(
        "terminal",
        "pytest -q",
        "FAILED test_login\n" + "x" * 5000,
        "[terminal] FAIL pytest -q → 1 failed: test_login",
        call_id="c1",
    )
    archive.add(
        "read_file",
        "core/auth.py",
        "class Auth:\n    def login(self): ...",
        "[read_file] core/auth.py (2 lines)",
        call_id="c2",
    )
    archive.add(
        "read_file",
        "core/users.py",
        "class Users:\n    def login_count(self): ...",
        "[read_file] core/users.py (2 lines)",
        call_id="c3",
    )
    registry, ctx = Registry.default(), _ctx(tmp_path, archive)

    by_id = registry.execute("recall", {"id": first}, ctx)
    assert (
        not by_id.is_error and "x" * 5000 in by_id.content and "FAILED test_login" in by_id.content
    )
    assert registry.execute("recall", {"id": "#" + first}, ctx).content == by_id.content

    best = registry.execute("recall", {"query": "class Auth"}, ctx)
    assert not best.is_error and best.content.startswith("[#a2 read_file core/auth.py]")

    several = registry.execute("recall", {"query": "read_file login"}, ctx)
    assert "#a2" in several.content and "#a3" in several.content and "by id" in several.content

    unknown = registry.execute("recall", {"id": "a99"}, ctx)
    assert unknown.is_error and "a99" in unknown.content
    assert registry.execute("recall", {"query": "zebra"}, ctx).is_error
    assert registry.execute("recall", {}, ctx).is_error
    assert registry.execute("recall", {"id": "a1"}, _ctx(tmp_path, None)).is_error


def test_archive_survives_a_resumed_session(tmp_path):
    path = archive_path(tmp_path, "proj", "s1")
    archive = Archive.open(path)
    archive.add("terminal", "ls", "a.py\nb.py", call_id="c1")
    archive.add("read_file", "a.py", "print('中文')", call_id="c2")
    with path.open("a", encoding="utf-8") as fh:
        fh.write('{"id": "a3", "tool": "term')  # a crash mid-write leaves a torn line
    resumed = Archive.open(path)
    assert [e.id for e in resumed.entries.values()] == ["a1", "a2"]
    assert resumed.get("a2").text == "print('中文')"
    assert resumed.add("terminal", "pwd", "/x") == "a3"  # ids continue, never reused
    assert resumed.add("terminal", "ls", "again", call_id="c1") == "a1"  # one entry per call
    assert Archive.open(path).get("a3").text == "/x"
    copy = Archive.from_dict(json.loads(json.dumps(resumed.to_dict())))
    assert copy.get("a3").text == "/x" and copy.id_for_call("c2") == "a2"
    whole = tmp_path / "whole.json"
    copy.save(whole)
    assert Archive.load(whole).get("a1").text == "a.py\nb.py"
    assert Archive.load(tmp_path / "missing.json").entries == {}


def test_an_unwritable_archive_keeps_working_in_memory(tmp_path):
    blocker = tmp_path / "projects"
    blocker.write_text("a file where a folder should be")
    archive = Archive.open(archive_path(tmp_path, "proj", "s1"))
    assert archive.add("terminal", "ls", "a.py") == "a1"
    assert archive.get("a1").text == "a.py" and "projects" in archive.persist_error
    folder = tmp_path / "dir.jsonl"
    folder.mkdir()
    unreadable = Archive.open(folder)
    assert unreadable.persist_error and unreadable.add("terminal", "pwd", "/x") == "a1"


def test_recall_returns_only_the_lines_asked_for(tmp_path):
    archive = Archive()
    text = "\n".join(f"def step_{n}(x):  # 步骤 {n}" for n in range(1, 301))
    entry = archive.add("read_file", "pkg/steps.py", text, "[read_file] pkg/steps.py", "c1")
    registry, ctx = Registry.default(), _ctx(tmp_path, archive)
    span = registry.execute("recall", {"id": entry, "lines": "120-122"}, ctx)
    assert not span.is_error
    assert span.content.splitlines() == [
        "[#a1 read_file pkg/steps.py: 3 of 300 lines]",
        "   120\tdef step_120(x):  # 步骤 120",
        "   121\tdef step_121(x):  # 步骤 121",
        "   122\tdef step_122(x):  # 步骤 122",
    ]
    hits = registry.execute("recall", {"id": entry, "grep": "STEP_25"}, ctx).content.splitlines()
    assert (
        hits[0].endswith(": 11 of 300 lines]") and hits[1] == "    25\tdef step_25(x):  # 步骤 25"
    )
    both = registry.execute("recall", {"id": entry, "lines": "200-300", "grep": "step_25"}, ctx)
    assert [r.split("\t")[0].strip() for r in both.content.splitlines()[1:]] == [
        str(n) for n in range(250, 260)
    ]
    for bad in ("the end", "80-40", "5-", "0-3", 0):
        out = registry.execute("recall", {"id": entry, "lines": bad}, ctx)
        form = "40-80" in out.content or "first-last" in out.content  # says the expected form
        assert out.is_error and form, bad
    one = registry.execute("recall", {"id": entry, "lines": "7"}, ctx).content.splitlines()
    assert one == [
        "[#a1 read_file pkg/steps.py: 1 of 300 lines]",
        "     7\tdef step_7(x):  # 步骤 7",
    ]
    cut = registry.execute("recall", {"id": entry, "grep": "def"}, ctx).content.splitlines()
    assert cut[0] == "[#a1 read_file pkg/steps.py: 300 of 300 lines; 100 more cut, ask for fewer]"
    assert len(cut) == 201
    found = registry.execute("recall", {"query": "steps.py", "lines": "2"}, ctx)  # by query too
    assert found.content.splitlines()[1] == "     2\tdef step_2(x):  # 步骤 2"
    assert len(registry.execute("recall", {"id": entry}, ctx).content) > len(text)  # whole


def test_recall_of_a_very_long_line_shows_its_start_and_the_rows_that_fit(tmp_path):
    archive = Archive()
    text = "short one\n" + "x" * 50_000 + "\nshort two"
    entry = archive.add("terminal", "cat data.json", text, "[terminal] cat data.json", "c1")
    registry, ctx = Registry.default(), _ctx(tmp_path, archive)
    rows = registry.execute("recall", {"id": entry, "lines": "2"}, ctx).content.splitlines()
    assert rows[0] == "[#a1 terminal cat data.json: 1 of 3 lines]"
    assert rows[1].startswith("     2\txxxx") and rows[1].endswith(" […]")
    assert len(rows[1]) < 30_000
    every = registry.execute("recall", {"id": entry, "lines": "1-3"}, ctx).content.splitlines()
    assert every[0].endswith("3 of 3 lines; 1 more cut, ask for fewer]")
    assert every[1:] == ["     1\tshort one", "     3\tshort two"]
