"""TypeScript: `#private` methods are called, and classes are referenced in `instanceof`,
generic and union type positions (#30 item 5)."""

from __future__ import annotations

from pathlib import Path

from core.codemap import CodeIndex, references

SHAPES = """export class Shape {
  #area(): number {
    return 1;
  }

  describe(): string {
    return String(this.#area());
  }
}

export function isShape(x: unknown): boolean {
  return x instanceof Shape;
}

export function pick(xs: Array<Shape>, y: Shape | null): Map<string, Shape> {
  return new Map([["a", y ?? xs[0]]]);
}

export function apply(run: (s: Shape) => void, s: Shape): void {
  [s].forEach(run);
}

export const handlers = { pick, isShape };
"""


def test_private_methods_types_and_values(tmp_path: Path):
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "shapes.ts").write_text(SHAPES)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        private = references(idx.db, "Shape.#area")[1]
        assert [(s.line, s.kind) for s in private] == [(7, "call")]
        shape = {(s.line, s.kind) for s in references(idx.db, "src/shapes.ts:Shape")[1]}
        assert shape == {(12, "value"), (15, "type"), (19, "type")}
        pick = {(s.line, s.kind) for s in references(idx.db, "pick")[1]}
        assert pick == {(23, "value")}  # a shorthand property: used as a value
    finally:
        idx.close()
