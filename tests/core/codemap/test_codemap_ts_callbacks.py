"""A callback an array or a map calls back (`items.forEach((item) => item.run())`): its
parameters are the container's elements, as the compiler types them (#30)."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from core.codemap.fileview import ViewCache
from tests.helpers.codemap_probe import probe

CLASSES = """export class Item {
  run(): number { return 1; }
}
export class Other {
  run(): number { return 2; }
}
"""

USES = """import { Item, Other } from "./item";
export function useAll(items: Item[], more: Array<Item>, m: Map<string, Item>) {
  items.forEach((it) => it.run());
  more.map(x => x.run());
  const f = items.find((y) => y.run() > 0);
  items.filter(function (w) { return w.run() > 1; });
  items.filter(q => q.run()).map(r => r.run());
  items.reduce((acc, cur) => acc + cur.run(), 0);
  items.sort((a, b) => a.run() - b.run());
  m.forEach((v, k) => v.run());
}
"""


def _sites(idx, target: str) -> list[tuple[int, float]]:
    found = references(idx.db, target, cache=ViewCache())[1]
    return [(s.line, s.confidence) for s in found if s.path == "src/use.ts"]


def test_an_arrays_callback_gets_its_elements(tmp_path: Path):
    """Every call is Item.run's, sure; none is a name match beside Other.run's."""
    with probe(tmp_path, {"src/item.ts": CLASSES, "src/use.ts": USES}) as idx:
        assert _sites(idx, "Item.run") == [(line, 0.9) for line in range(3, 11)]
        assert _sites(idx, "Other.run") == []


INDEXED = """import { Item } from "./item";
export function keyed(items: Item[], m: Map<Item, string>) {
  items.forEach((it, i) => i.run());
  items.reduce((acc, cur) => acc.run(), 0);
  m.forEach((v, k) => v.run());
}
"""


def test_an_index_or_an_accumulator_is_no_element(tmp_path: Path):
    """An index and a fold's accumulator are no Item: their calls stay name-match guesses
    (listed apart, below 0.5); a map's value of a type from outside is not Item's at all."""
    with probe(tmp_path, {"src/item.ts": CLASSES, "src/use.ts": INDEXED}) as idx:
        assert _sites(idx, "Item.run") == [(3, 0.4), (4, 0.4)]


OWN = """import { Other } from "./item";
export class Bag {
  forEach(cb: (x: Other) => void): void {}
}
export function walk(bag: Bag) {
  bag.forEach((x) => x.run());
}
"""


def test_a_project_classs_own_for_each_keeps_its_declared_callback(tmp_path: Path):
    """`forEach` of a project class is its own: the callback's parameter is what it declares
    (a method read as the callee, not what calling it gives)."""
    with probe(tmp_path, {"src/item.ts": CLASSES, "src/use.ts": OWN}) as idx:
        assert _sites(idx, "Other.run") == [(6, 0.9)]
        assert _sites(idx, "Item.run") == []
