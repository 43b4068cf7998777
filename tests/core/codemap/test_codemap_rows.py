"""The `binds` table keeps only the rows a question reads by SQL (#30, speed): `return` and
`yield` types, nested-block ends, `__all__` entries and copies (`b = a.f`); every other binding
travels in the file's view, and questions answer from it as before."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from tests.helpers.codemap_probe import probe

SHAPES = """__all__ = ["Shape", "make"]


class Shape:
    def area(self):
        return 0


def make():
    return Shape()


def test_area(self, shape):
    return shape
"""

USE = """from shapes import Shape, make


def run(flag):
    s = Shape()
    s.area()  # Shape.area: `s = Shape()` is in the view only
    t: Shape = get()
    t.area()  # Shape.area: the annotation, in the view only
    m = make()
    m.area()  # Shape.area: what make() returns, a `gives` row
    f = s.area
    return f
"""


def _rows(idx) -> set[tuple[str, str]]:
    return {(kind, name) for kind, name in idx.db.execute("SELECT kind, name FROM binds")}


def test_bindings_only_the_view_reads_stay_out_of_the_table(tmp_path: Path):
    with probe(tmp_path, {"shapes.py": SHAPES, "use.py": USE}) as idx:
        rows = _rows(idx)
        assert {("all", "Shape"), ("all", "make"), ("gives", "")} <= rows
        assert {name for kind, name in rows if kind == "var"} == {"f"}  # `f = s.area`, a copy
        aliases = idx.db.execute("SELECT name FROM binds WHERE alias='area'").fetchall()
        assert aliases == [("f",)]
        sites = references(idx.db, "Shape.area")[1]
        sure = {s.line for s in sites if s.confidence >= 0.5 and s.path == "use.py"}
        assert sure == {6, 8, 10, 11}  # 11: `f = s.area` reads it
        exported = {(s.path, s.line) for s in references(idx.db, "shapes.py:make")[1]}
        assert ("shapes.py", 1) in exported  # the `__all__` entry


CALLS = """import re

a = re.compile ("x")
b = re.compile \\
    ("y")
c = re.compile
d = (re.compile)("z")
e = [re.compile][0]("w")
f = (re.compile
     ("v"))
g = re.compile  # a statement, then another
("u")
h = (re.compile  # inside brackets a comment and a line break
     ("t"))
"""


def test_a_call_of_an_attribute_is_told_by_the_bytes_after_it(tmp_path: Path):
    with probe(tmp_path, {"calls.py": CALLS}) as idx:
        kinds = dict(idx.db.execute("SELECT line, kind FROM refs WHERE name='compile'"))
        assert kinds == {
            3: "call",
            4: "call",
            6: "attribute",
            7: "attribute",
            8: "attribute",
            9: "call",
            11: "attribute",
            13: "call",
        }
