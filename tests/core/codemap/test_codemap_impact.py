"""`impact` follows every kind of reference, marks what it reached only through guessed
sites, and says what its depth, size and time limits left out (#30 item 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.codemap import CodeIndex, CodeMap, impact

CORE = """def parse(text):
    return text


class Reader:
    def read(self):
        return parse("x")

    @property
    def size(self):
        return 1
"""

USERS = """from core import Reader, parse


def on_event(callback=parse):
    return callback


def handlers():
    return {"parse": parse}


def measure(reader: Reader):
    return reader.size


def unknown(thing):
    return thing.read()


def top():
    return measure(Reader())
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    project = tmp_path / "p"
    project.mkdir()
    (project / "core.py").write_text(CORE)
    (project / "users.py").write_text(USERS)
    return project


@pytest.fixture
def index(root: Path, tmp_path: Path):
    idx = CodeIndex(root, tmp_path / "m.db")
    idx.refresh()
    yield idx
    idx.close()


def _reached(found) -> dict[tuple[str, str], bool]:
    return {(d.path, d.symbol): d.uncertain for d in found.dependents}


def test_values_properties_and_annotations_are_followed(index):
    assert _reached(impact(index.db, "parse", max_depth=1)) == {
        ("core.py", "Reader.read"): False,
        ("users.py", "on_event"): False,  # a default value
        ("users.py", "handlers"): False,  # put in a dict
    }
    found = impact(index.db, "Reader.size", max_depth=2)
    assert _reached(found) == {("users.py", "measure"): False, ("users.py", "top"): False}


def test_what_a_guess_reached_is_marked(index):
    found = _reached(impact(index.db, "Reader.read", max_depth=2))
    assert found[("users.py", "unknown")] is True  # thing.read(): matched by name only


def test_the_limits_say_what_they_left_out(index):
    shallow = impact(index.db, "Reader.size", max_depth=1)
    assert _reached(shallow) == {("users.py", "measure"): False}
    assert shallow.left_out["beyond_depth"] == 1
    small = impact(index.db, "parse", max_depth=3, limit=1)
    assert len(small.dependents) == 1 and small.left_out["over_limit"] == 2
    assert small.left_out["stopped"] == "limit"
    late = impact(index.db, "parse", seconds=0.0)
    assert late.dependents == [] and late.left_out["stopped"] == "time"


def test_the_answer_and_the_json_say_it(root, tmp_path):
    cmap = CodeMap(root, tmp_path / "home")
    try:
        text = cmap.impact("Reader.read", max_depth=1)
        assert "users.py:17 unknown  (uses Reader.read)  [uncertain]" in text
        assert "1 reached only through uncertain sites" in text.splitlines()[0]
        data = cmap.data("impact", "Reader.read")
        assert [d["symbol"] for d in data["uncertain"]] == ["unknown"]
        assert data["left_out"]["stopped"] == ""
        assert "left out: 1 dependents" in cmap.impact("Reader.size", max_depth=1)
    finally:
        cmap.close()


def test_a_stub_beside_the_module_is_a_dependent(tmp_path: Path):
    root = tmp_path / "s"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "conv.py").write_text(
        "def optional(c):\n    return c\n\n\nclass Box:\n    pass\n"
    )
    (root / "pkg" / "conv.pyi").write_text("def optional(c: int) -> int: ...\nclass Box: ...\n")
    (root / "use.py").write_text(
        "from pkg.conv import optional\n\n\ndef run():\n    return optional(1)\n"
    )
    idx = CodeIndex(root, tmp_path / "s.db")
    try:
        idx.refresh()
        found = {
            (d.path, d.symbol, d.kind) for d in impact(idx.db, "pkg/conv.py:optional").dependents
        }
        assert found == {("pkg/conv.pyi", "optional", "stub"), ("use.py", "run", "call")}
        box = {(d.path, d.symbol, d.kind) for d in impact(idx.db, "pkg/conv.py:Box").dependents}
        assert box == {("pkg/conv.pyi", "", "stub")}
    finally:
        idx.close()
    cmap = CodeMap(root, tmp_path / "home")
    try:
        text = cmap.impact("pkg/conv.py:optional")
        assert "pkg/conv.pyi" in text and "(uses stub of optional)" in text
    finally:
        cmap.close()


class Ticks:
    """A clock that moves one second each time it is read, and notes each read and each SQL
    statement in one list: the time limit becomes a count of looks at the clock."""

    def __init__(self, events: list[str]) -> None:
        self.now, self.events = 0.0, events

    def __call__(self) -> float:
        self.now += 1.0
        self.events.append("clock")
        return self.now


def _chain(tmp_path: Path) -> CodeIndex:
    """m0.py … m5.py: each imports the one before and calls its function and method."""
    root = tmp_path / "chain"
    root.mkdir()
    (root / "m0.py").write_text(
        "def f0():\n    return 0\n\n\nclass C0:\n    def g(self):\n        return f0()\n"
    )
    for n in range(1, 6):
        (root / f"m{n}.py").write_text(
            f"from m{n - 1} import f{n - 1}, C{n - 1}\n\n\ndef f{n}():\n"
            f"    return f{n - 1}() + C{n - 1}().g()\n\n\nclass C{n}:\n"
            f"    def g(self):\n        return f{n}()\n"
        )
    idx = CodeIndex(root, tmp_path / "chain.db")
    idx.refresh()
    return idx


@pytest.mark.parametrize("target", ["f0", "m0.py", "C0.g"])
def test_the_time_limit_holds_wherever_the_time_goes(tmp_path: Path, target: str):
    """Whatever the budget, an answer cut short by the time limit does no more work once the
    clock has said so (no SQL statement after the last look: SQLite's progress handler looks
    too, every so many steps, so the cut falls anywhere), keeps what it reached and says that
    it stopped and what it did not ask."""
    idx = _chain(tmp_path)
    try:
        full = {(d.path, d.symbol) for d in impact(idx.db, target, 6, seconds=None).dependents}
        assert len(full) >= 5
        for budget in range(1, 400):
            events: list[str] = []
            idx.db.set_trace_callback(events.append)
            found = impact(idx.db, target, 6, seconds=budget, clock=Ticks(events))
            idx.db.set_trace_callback(None)
            reached = {(d.path, d.symbol) for d in found.dependents}
            assert reached <= full
            if found.left_out["stopped"] != "time":
                break
            last_look = len(events) - 1 - events[::-1].index("clock")
            assert events[last_look + 1 :] == []  # no statement once the clock said late
            assert found.left_out["beyond_depth"] >= 1  # what was not asked is counted
        assert reached == full and found.left_out["stopped"] == "", budget
        assert budget > 3  # the small budgets did stop early
    finally:
        idx.close()
