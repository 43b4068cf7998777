"""TypeScript receivers typed as the compiler types them (#30): return types, `this`, fields
holding functions, `export { a as b }`, interfaces and their `extends`, a type alias's union,
call chains; a member TypeScript declares elsewhere is no guess at another class's method."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.codemap import CodeIndex, references

BOXES = """export class Box {
  open(): number {
    return 1;
  }
  wrap(): this {
    return this;
  }
  static create = (size?: number): Box => {
    return new Box();
  };
}

export class Crate {
  open(): number {
    return 2;
  }
  shut(): number {
    return 3;
  }
}

export function make(): Box {
  return new Box();
}

const boxType = Box.create;
export { boxType as box };

export interface Lid {
  open(): number;
  hinge: Crate | undefined;
}

export interface Big extends Lid {
  size: number;
}

export type Either = Box | Crate;

export const coerce = { shut: () => 4 };
"""

INDEX = """export * from "./boxes";
"""

USES = """import * as k from "./index";

export function returned() {
  make_it();
  k.make().open();
}

function make_it() {
  return 0;
}

export function chained() {
  k.make().wrap().open();
}

export function renamed() {
  k.box().open();
}

export function bound() {
  const b = k.box({ size: 1, label: "a long argument list that a cut text would break" }).wrap();
  b.open();
}

export function typed(lid: k.Lid, big: k.Big) {
  lid.open();
  big.open();
  lid.hinge.shut();
}

export function unions(e: k.Either | undefined) {
  e.open();
}

export function literal() {
  k.coerce.shut();
}

export class Holder<T> {
  inner: T;
  constructor(inner: T) {
    this.inner = inner;
  }
  poke(): number {
    return this.inner.shut();
  }
}
"""


@pytest.fixture
def index(tmp_path: Path):
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "boxes.ts").write_text(BOXES)
    (root / "src" / "index.ts").write_text(INDEX)
    (root / "src" / "uses.ts").write_text(USES)
    idx = CodeIndex(root, tmp_path / "m.db")
    idx.refresh()
    yield idx
    idx.close()


def _sites(idx: CodeIndex, target: str) -> dict[int, float]:
    return {s.line: s.confidence for s in references(idx.db, target)[1] if s.path == "src/uses.ts"}


def test_return_types_this_fields_and_renamed_exports_type_a_chain(index: CodeIndex):
    box = _sites(index, "src/boxes.ts:Box.open")
    assert {5, 13, 17, 22} <= set(box)  # make(): Box; wrap(): this; create's `: Box`; a const
    assert all(box[line] >= 0.5 for line in (5, 13, 17, 22))
    crate = _sites(index, "src/boxes.ts:Crate.open")
    assert not {5, 13, 17, 22} & set(crate)  # typed as a Box: never a guess at Crate's


def test_an_interface_member_is_no_guess_at_a_class_method(index: CodeIndex):
    for target in ("src/boxes.ts:Box.open", "src/boxes.ts:Crate.open"):
        sites = _sites(index, target)
        assert 26 not in sites and 27 not in sites  # Lid.open, and Big's through `extends`
    assert _sites(index, "src/boxes.ts:Crate.shut")[28] >= 0.5  # hinge: Crate | undefined


def test_a_type_alias_union_gives_each_member(index: CodeIndex):
    assert _sites(index, "src/boxes.ts:Box.open")[32] >= 0.5
    assert _sites(index, "src/boxes.ts:Crate.open")[32] >= 0.5


def test_an_object_literal_property_and_an_unknown_field(index: CodeIndex):
    shut = _sites(index, "src/boxes.ts:Crate.shut")
    assert 36 not in shut  # `coerce.shut()`: the literal's own property
    assert 0 < shut[45] < 0.5  # `this.inner: T`: nobody knows, so a guess, kept apart


STREAMS = """export class Sink<T> {
  next(value: T): void {}
}

export class Tap<T> {
  next(value: T): void {}
}

export interface Observer<T> {
  next: (value: T) => void;
}

export class Stream<T> {
  constructor(subscribe?: (this: Stream<T>, sink: Sink<T>) => void) {}
}

export function operate<T>(init: (source: Stream<T>, sink: Sink<T>) => void): void {}

export class Hub<T> {
  protected destination: Sink<T> | Observer<T>;
  private taps: Tap<T>[] = [];
  constructor(private partial: Partial<Observer<T>>) {
    this.destination = new Sink<T>();
  }
  emit(value: T): void {
    this.destination.next(value);
    this.partial.next(value);
    for (const tap of this.taps.slice()) {
      tap.next(value);
    }
  }
}

export function streams() {
  new Stream((sink) => {
    sink.next(1);
  });
  operate((source, sink) => sink.next(2));
}
"""


def test_declared_fields_containers_and_callbacks_type_their_receivers(tmp_path: Path):
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "streams.ts").write_text(STREAMS)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        sink = {s.line: s.confidence for s in references(idx.db, "Sink.next")[1]}
        tap = {s.line: s.confidence for s in references(idx.db, "Tap.next")[1]}
        assert sink[26] >= 0.5 and 26 not in tap  # `Sink<T> | Observer<T>`: Sink's, declared
        assert 27 not in sink and 27 not in tap  # `Partial<Observer<T>>`: the interface's
        assert tap[29] >= 0.5 and 29 not in sink  # an element of `Tap<T>[]`, sliced
        assert sink[36] >= 0.5 and 36 not in tap  # the constructor's callback gets a Sink
        assert sink[38] >= 0.5 and 38 not in tap  # and so does operate's
    finally:
        idx.close()


CONFIG = """export class Sink {
  next(): void {}
}

export class Tap {
  next(): void {}
}

export interface Config {
  sink: Sink;
}

export class Socket {
  constructor(private config: Config) {}
  open(): void {
    const { sink } = this.config;
    sink.next();
  }
}
"""


def test_a_destructured_name_holds_what_its_property_holds(tmp_path: Path):
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "socket.ts").write_text(CONFIG)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        assert [s.line for s in references(idx.db, "Sink.next")[1]] == [17]
        assert references(idx.db, "Tap.next")[1] == []
    finally:
        idx.close()


LINKED = """import { Sink } from "./socket";

/**
 * Writes to a {@link Sink}; see {@link Sink.next} and {@linkcode Other}.
 */
export function write(): void {}
"""


def test_doc_comment_links_are_value_references(tmp_path: Path):
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "socket.ts").write_text(CONFIG)
    (root / "src" / "write.ts").write_text(LINKED)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        sink = {(s.path, s.line, s.kind) for s in references(idx.db, "src/socket.ts:Sink")[1]}
        assert ("src/write.ts", 4, "value") in sink
        method = {(s.path, s.line) for s in references(idx.db, "Sink.next")[1]}
        assert ("src/write.ts", 4) in method
    finally:
        idx.close()


SUPER = """export class Subject {
  next(value: number): void {}
}

export class Behavior extends Subject {
  next(value: number): void {
    super.next(value);
  }
}

export class Other {
  next(value: number): void {}
}
"""


def test_super_is_the_base_class(tmp_path: Path):
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "subject.ts").write_text(SUPER)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        sites = {s.line: s.confidence for s in references(idx.db, "Subject.next")[1]}
        assert sites[7] >= 0.5
        assert 7 not in {s.line for s in references(idx.db, "Other.next")[1]}
    finally:
        idx.close()


DEFAULTS = """export default class Store {
  save(): void {}
}
"""

CASTS = """import Store from "./store";
import { Cache } from "./cache";

export function use(x: unknown, a: unknown, b: unknown) {
  const s = x as Store;
  s.save();
  (x as Cache).save();
  (a || b).save();
}
"""

CACHE = """export class Cache {
  save(): void {}
}
"""


def test_default_exports_casts_and_a_parenthesized_unknown(tmp_path: Path):
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "store.ts").write_text(DEFAULTS)
    (root / "src" / "cache.ts").write_text(CACHE)
    (root / "src" / "use.ts").write_text(CASTS)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        store = {s.line: s.confidence for s in references(idx.db, "Store.save")[1]}
        cache = {s.line: s.confidence for s in references(idx.db, "Cache.save")[1]}
        assert store[6] >= 0.5 and 6 not in cache  # `x as Store`, Store the default export
        assert cache[7] >= 0.5 and 7 not in store  # `(x as Cache).save()`
        assert 0 < store[8] < 0.5 and 0 < cache[8] < 0.5  # `(a || b)`: a guess, not dropped
    finally:
        idx.close()


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
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "shapes.ts").write_text(GENERIC)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        pen = {s.line: s.confidence for s in references(idx.db, "Pen.write")[1]}
        ink = {s.line: s.confidence for s in references(idx.db, "Ink.write")[1]}
        assert pen[24] >= 0.5 and 24 not in ink  # `extends Shape<number, PenDef>`: D a PenDef
        assert pen[35] >= 0.5 and 35 not in ink  # `h: Holder<Pen>`: T a Pen
        assert ink[36] >= 0.5 and 36 not in pen  # `Shape<Ink, PenDef>`: Out an Ink
        assert pen[37] >= 0.5 and 37 not in ink
        assert pen[38] >= 0.5 and 38 not in ink  # `interface PenHolder extends Holder<Pen>`
    finally:
        idx.close()


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
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "maker.ts").write_text(OVERLOADS)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        pen = {s.line: s.confidence for s in references(idx.db, "Pen.write")[1]}
        ink = {s.line: s.confidence for s in references(idx.db, "Ink.write")[1]}
        assert pen[23] >= 0.5 and 23 not in ink  # `make(size: number): Pen;`
    finally:
        idx.close()


def test_a_static_field_holds_what_the_name_it_is_given_holds(tmp_path: Path):
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "maker.ts").write_text(OVERLOADS)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        pen = {s.line: s.confidence for s in references(idx.db, "Pen.write")[1]}
        ink = {s.line: s.confidence for s in references(idx.db, "Ink.write")[1]}
        assert ink[24] >= 0.5 and 24 not in pen  # `static ink = makeInk`
    finally:
        idx.close()


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
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "first.ts").write_text(SOLVED)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        pen = {s.line: s.confidence for s in references(idx.db, "Pen.write")[1]}
        ink = {s.line: s.confidence for s in references(idx.db, "Ink.write")[1]}
        assert pen[14] >= 0.5 and 14 not in ink  # `first<T>(x: T): T` given a Pen
        assert ink[16] >= 0.5 and 16 not in pen
    finally:
        idx.close()


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
    root = tmp_path / "p"
    (root / "src").mkdir(parents=True)
    (root / "src" / "box.ts").write_text(MADE)
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        pen = {s.line: s.confidence for s in references(idx.db, "Pen.write")[1]}
        ink = {s.line: s.confidence for s in references(idx.db, "Ink.write")[1]}
        assert pen[15] >= 0.5 and 15 not in ink  # `new Box<Pen>()`: T a Pen
    finally:
        idx.close()
