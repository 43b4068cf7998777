"""Every kind of reference is indexed with its kind (call, decorator, base, value, annotation,
property, import), and `refs` keeps name guesses apart from resolved sites (#30 items 2, 3)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from core.codemap import CodeMap
from tests.conftest import run_cli

SHAPES = """def register(cls):
    return cls


def make(n):
    return Shape(n)


class Shape:
    def __init__(self, n):
        self.n = n

    @property
    def area(self):
        return self.n * self.n

    def scale(self, k):
        return Shape(self.n * k)
"""

USE = """from typing import Optional

from pkg.shapes import Shape, make, register


@register
class Square(Shape):
    pass


def build(s: Shape, other: Optional["Shape"] = None) -> list[Shape]:
    factory = make
    table = {"make": make}
    if isinstance(s, Shape):
        print(s.area)
    s.scale(2)
    return [factory(1), table]


def unknown(thing):
    return thing.scale(3)
"""


@pytest.fixture
def cmap(tmp_path: Path):
    root = tmp_path / "p"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "shapes.py").write_text(SHAPES)
    (root / "use.py").write_text(USE)
    found = CodeMap(root, tmp_path / "home")
    yield found
    found.close()


def _kinds(cmap: CodeMap, target: str) -> dict[tuple[str, int], str]:
    answer = cmap.data("references", target)
    return {(r["path"], r["line"]): r["kind"] for r in answer["references"]}


def test_each_site_has_its_kind(cmap):
    assert _kinds(cmap, "Shape") == {
        ("pkg/shapes.py", 6): "call",
        ("pkg/shapes.py", 18): "call",
        ("use.py", 3): "import",
        ("use.py", 7): "base",
        ("use.py", 11): "annotation",  # Shape, Optional["Shape"], list[Shape]
        ("use.py", 14): "value",  # isinstance(s, Shape)
    }
    assert _kinds(cmap, "make") == {
        ("use.py", 3): "import",
        ("use.py", 12): "value",  # factory = make
        ("use.py", 13): "value",  # {"make": make}
    }  # not `factory(1)` (17): a use of `factory`, as jedi and pyright count
    assert _kinds(cmap, "register") == {("use.py", 3): "import", ("use.py", 6): "decorator"}
    assert _kinds(cmap, "Shape.area") == {("use.py", 15): "property"}


def test_guesses_are_kept_apart_from_resolved_sites(cmap):
    answer = cmap.data("references", "Shape.scale")
    assert [(r["path"], r["line"]) for r in answer["references"]] == [("use.py", 16)]
    assert [(r["path"], r["line"], r["reason"]) for r in answer["uncertain"]] == [
        ("use.py", 21, "unique name")
    ]
    assert "uncertain" not in cmap.data("references", "Shape.scale", confident=True)
    text = cmap.references("Shape.scale")
    assert text.index("use.py:16") < text.index("uncertain (matched by name only):")
    assert text.index("uncertain (matched by name only):") < text.index("use.py:21")
    assert "use.py:21" not in cmap.references("Shape.scale", confident=True)


def test_the_cli_splits_confident_and_uncertain(cmap, isolated_home):
    args = ("codemap", "--dir", str(cmap.root), "refs", "Shape.scale")
    full = json.loads(run_cli(*args, "--json").stdout)
    assert [r["line"] for r in full["references"]] == [16]
    assert [r["line"] for r in full["uncertain"]] == [21]
    sure = json.loads(run_cli(*args, "--confident", "--json").stdout)
    assert "uncertain" not in sure and [r["line"] for r in sure["references"]] == [16]
    text = run_cli(*args, "--confident").stdout
    assert "use.py:16" in text and "use.py:21" not in text
