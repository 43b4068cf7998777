"""Python names resolve per scope (LEGB): a function's parameters, loop, `with`, `except`,
comprehension and lambda targets and its own imports hide the module's names; a class body's
names are not seen by its methods; `global` reaches the module. jedi and pyright agree on
every line below (checked with bench/referee.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.codemap import CodeIndex, references

TOOLS = """def run():
    return 1


def load():
    return 2
"""

MAIN = """from pkg.tools import run, load


def local_import():
    from other import run
    run()  # other's


def parameter(run):
    run()  # the parameter


def loop(items):
    for load in items:
        load()  # the loop's


def opened(opener):
    with opener() as run:
        run()  # the with target's


def caught():
    try:
        pass
    except Exception as load:
        load()  # the exception's


def comprehension(xs):
    return [run() for run in xs]  # the comprehension's


def comprehension_does_not_leak(xs):
    ys = [run for run in xs]
    run()  # tools.run
    return ys


def lambdas():
    return lambda load: load()  # the lambda's


def plain():
    run()  # tools.run


def declared_global():
    global run
    run = run  # tools.run, then rebinding the module's name
    run()  # tools.run


def outer(make):
    load = make()

    def inner():
        load()  # outer's local

    return inner


class Holder:
    run = staticmethod(lambda: 0)

    def method(self):
        run()  # tools.run: the class body's run is not seen here
"""

ONLY_HERE = """def first():
    from pkg.tools import load
    load()  # tools.load


def second():
    load()  # unbound here: the import is first()'s
"""


@pytest.fixture
def index(tmp_path: Path):
    root = tmp_path / "p"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "tools.py").write_text(TOOLS)
    (root / "main.py").write_text(MAIN)
    (root / "only_here.py").write_text(ONLY_HERE)
    idx = CodeIndex(root, tmp_path / "m.db")
    idx.refresh()
    yield idx
    idx.close()


def _lines(index: CodeIndex, target: str) -> set[tuple[str, int]]:
    return {(s.path, s.line) for s in references(index.db, target)[1]}


def _marked(source: str, mark: str) -> set[int]:
    return {n for n, line in enumerate(source.splitlines(), 1) if line.endswith(mark)}


def test_locals_hide_the_modules_name_and_nothing_else_does(index):
    expected = {("main.py", n) for n in _marked(MAIN, "# tools.run")}
    expected |= {("main.py", n) for n in _marked(MAIN, "the class body's run is not seen here")}
    expected |= {("main.py", 1), ("main.py", 49), ("main.py", 50)}  # import, global, `= run`
    assert _lines(index, "pkg/tools.py:run") == expected


def test_an_import_inside_a_function_binds_only_there(index):
    found = _lines(index, "pkg/tools.py:load")
    assert {("only_here.py", 2), ("only_here.py", 3), ("main.py", 1)} == found
    for n in _marked(MAIN, "the loop's") | _marked(MAIN, "the exception's"):
        assert ("main.py", n) not in found
    assert ("main.py", _marked(MAIN, "the lambda's").pop()) not in found
    assert ("main.py", _marked(MAIN, "outer's local").pop()) not in found


REBOUND = """def unattached(message):
    raise RuntimeError(message)


class Responder:
    def __init__(self):
        self.send = unattached

    def __call__(self, send):
        self.send = send
        self.send("x")  # the parameter's value, or unattached: not sure
"""


def test_an_attribute_bound_to_two_things_is_no_sure_alias(tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "gzip.py").write_text(REBOUND)
    idx = CodeIndex(tmp_path / "p", tmp_path / "m.db")
    try:
        idx.refresh()
        sites = references(idx.db, "unattached")[1]
        assert {(s.line, s.kind) for s in sites} == {(7, "value")}
    finally:
        idx.close()
