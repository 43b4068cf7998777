"""A lambda handed to a builtin that calls it with the elements of an iterable
(`sorted(xs, key=lambda x: x.rank())`, `map(lambda x: …, xs)`, `xs.sort(key=…)`): its parameter
is an element, as pyright types it (#30)."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from core.codemap.fileview import ViewCache
from tests.helpers.codemap_probe import probe

CLASSES = """class Item:
    def rank(self) -> int:
        return 1


class Other:
    def rank(self) -> int:
        return 2
"""

USES = """from pkg.item import Item, Other


def use(items: list[Item], others: list[Other]) -> None:
    sorted(items, key=lambda it: it.rank())
    max(items, key=lambda x: x.rank())
    list(map(lambda y: y.rank(), items))
    list(filter(lambda z: z.rank() > 0, items))
    items.sort(key=lambda w: w.rank())
    min(items, key=lambda v: v.rank(), default=None)
    sorted(others, key=lambda it: it.rank())
"""


def _sites(idx, target: str) -> list[tuple[int, float]]:
    found = references(idx.db, target, cache=ViewCache())[1]
    return [(s.line, s.confidence) for s in found if s.path == "pkg/use.py"]


def test_a_lambdas_parameter_is_an_element(tmp_path: Path):
    files = {"pkg/__init__.py": "", "pkg/item.py": CLASSES, "pkg/use.py": USES}
    with probe(tmp_path, files) as idx:
        assert [line for line, conf in _sites(idx, "Item.rank") if conf >= 0.5] == list(
            range(5, 11)
        )
        assert [line for line, conf in _sites(idx, "Other.rank") if conf >= 0.5] == [11]


LOOSE = """from pkg.item import Item


def use(items: list[Item], a: Item, b: Item) -> None:
    max(a, b, key=lambda x: x.rank())
    list(map(lambda p, q: p.rank(), items, items))
    it = 3
    sorted(items, key=lambda it: it.rank())
    it.rank()
"""


def test_only_the_lambdas_own_lines_and_one_iterable(tmp_path: Path):
    """`max(a, b, key=…)` compares a and b themselves (not their elements) and a two-iterable
    `map` is left to the name match; the lambda's `it` types only the lambda, not the
    function's own `it` below it."""
    files = {"pkg/__init__.py": "", "pkg/item.py": CLASSES, "pkg/use.py": LOOSE}
    with probe(tmp_path, files) as idx:
        sure = [line for line, conf in _sites(idx, "Item.rank") if conf >= 0.5]
        assert sure == [8]
