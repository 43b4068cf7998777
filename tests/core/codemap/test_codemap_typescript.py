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


HIERARCHY = """export abstract class Base {
  abstract run(x: number): number;
  twice(x: number): number {
    return this.run(this.run(x));
  }
}

export class Fast extends Base {
  run(x: number): number {
    return x;
  }
}

export class Slow extends Base {
  run(x: number): number {
    return x + 1;
  }
}

export class Other {
  run(): void {}
}
"""


def test_a_method_counts_the_declarations_it_shares_a_base_with(tmp_path: Path):
    """A call through the base may run the override; the compiler's findReferences lists
    the abstract declaration and the other overrides too (an unrelated `run` is not)."""
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "shapes.ts").write_text(HIERARCHY)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        found = {(s.line, s.kind) for s in references(idx.db, "Fast.run")[1]}
        assert found == {(2, "override"), (4, "call"), (15, "override")}
    finally:
        idx.close()
