"""TypeScript members reached through interfaces (#30): an interface method returning `this`
gives its receiver back, so what follows in the chain resolves on the same type."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from tests.helpers.codemap_probe import probe

SCHEMAS = """export class Base {
  parse(data: unknown): string {
    return "";
  }
}
export interface Str extends Base {
  trim(): this;
}
export function string(): Str {
  return null as any;
}
"""

CHAINED = """import * as z from "./schemas";
const s = z.string().trim();
s.parse(1);
z.string().trim().parse(2);
"""


def test_an_interface_method_returning_this_keeps_the_receiver(tmp_path: Path):
    with probe(tmp_path, {"src/schemas.ts": SCHEMAS, "src/use.ts": CHAINED}) as idx:
        found = [(s.path, s.line, s.confidence) for s in references(idx.db, "Base.parse")[1]]
        assert found == [("src/use.ts", 3, 0.9), ("src/use.ts", 4, 0.9)]
