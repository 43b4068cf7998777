"""TypeScript type arguments (#30): a generic's type parameters filled from `extends Base<Foo>`,
a declared `Box<Foo>`, `new Box<Foo>()` and a generic function's argument; overloads and fields
given a name type their calls."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from tests.helpers.codemap_probe import probe

GENERIC = """export class Pen {
  write(): void {}
}

export class Ink {
  write(): void {}
}

export interface Def {
  kind: string;
}

export interface PenDef extends Def {
  pen: Pen;
}

export class Shape<Out, D extends Def> {
  _def: D;
  out: Out;
}

export class PenShape extends Shape<number, PenDef> {
  draw(): void {
    this._def.pen.write();
  }
}

export interface Holder<T> {
  held: T;
}

export interface PenHolder extends Holder<Pen> {}

export function use(h: Holder<Pen>, s: Shape<Ink, PenDef>, p: PenHolder) {
  h.held.write();
  s.out.write();
  s._def.pen.write();
  p.held.write();
}
"""


def test_type_arguments_fill_a_generic_s_type_variables(tmp_path: Path):
    with probe(tmp_path, {"src/shapes.ts": GENERIC}) as idx:
        pen = {s.line: s.confidence for s in references(idx.db, "Pen.write")[1]}
        ink = {s.line: s.confidence for s in references(idx.db, "Ink.write")[1]}
        assert pen[24] >= 0.5 and 24 not in ink  # `extends Shape<number, PenDef>`: D a PenDef
        assert pen[35] >= 0.5 and 35 not in ink  # `h: Holder<Pen>`: T a Pen
        assert ink[36] >= 0.5 and 36 not in pen  # `Shape<Ink, PenDef>`: Out an Ink
        assert pen[37] >= 0.5 and 37 not in ink
        assert pen[38] >= 0.5 and 38 not in ink  # `interface PenHolder extends Holder<Pen>`


OVERLOADS = """export class Pen {
  write(): void {}
}

export class Ink {
  write(): void {}
}

function makeInk(): Ink {
  return new Ink();
}

export class Maker {
  static ink = makeInk;
  make(size: number): Pen;
  make(name: string): Pen;
  make(x: any) {
    return new Pen() as any;
  }
}

export function use(m: Maker) {
  m.make(1).write();
  Maker.ink().write();
}
"""


def test_a_class_method_s_overload_says_what_its_call_gives(tmp_path: Path):
    with probe(tmp_path, {"src/maker.ts": OVERLOADS}) as idx:
        pen = {s.line: s.confidence for s in references(idx.db, "Pen.write")[1]}
        ink = {s.line: s.confidence for s in references(idx.db, "Ink.write")[1]}
        assert pen[23] >= 0.5 and 23 not in ink  # `make(size: number): Pen;`


def test_a_static_field_holds_what_the_name_it_is_given_holds(tmp_path: Path):
    with probe(tmp_path, {"src/maker.ts": OVERLOADS}) as idx:
        pen = {s.line: s.confidence for s in references(idx.db, "Pen.write")[1]}
        ink = {s.line: s.confidence for s in references(idx.db, "Ink.write")[1]}
        assert ink[24] >= 0.5 and 24 not in pen  # `static ink = makeInk`


SOLVED = """export class Pen {
  write(): void {}
}

export class Ink {
  write(): void {}
}

export function first<T>(x: T): T {
  return x;
}

export function use(pen: Pen, ink: Ink) {
  first(pen).write();
  const i = first(ink);
  i.write();
}
"""


def test_a_generic_function_s_return_is_its_argument_s_type(tmp_path: Path):
    with probe(tmp_path, {"src/first.ts": SOLVED}) as idx:
        pen = {s.line: s.confidence for s in references(idx.db, "Pen.write")[1]}
        ink = {s.line: s.confidence for s in references(idx.db, "Ink.write")[1]}
        assert pen[14] >= 0.5 and 14 not in ink  # `first<T>(x: T): T` given a Pen
        assert ink[16] >= 0.5 and 16 not in pen


MADE = """export class Pen {
  write(): void {}
}

export class Ink {
  write(): void {}
}

export class Box<T> {
  held: T;
}

export function use() {
  const b = new Box<Pen>();
  b.held.write();
}
"""


def test_new_with_type_arguments_fills_them(tmp_path: Path):
    with probe(tmp_path, {"src/box.ts": MADE}) as idx:
        pen = {s.line: s.confidence for s in references(idx.db, "Pen.write")[1]}
        ink = {s.line: s.confidence for s in references(idx.db, "Ink.write")[1]}
        assert pen[15] >= 0.5 and 15 not in ink  # `new Box<Pen>()`: T a Pen
