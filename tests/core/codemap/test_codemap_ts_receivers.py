"""TypeScript receivers typed as the compiler types them (#30): return types, `this`, fields
holding functions, `export { a as b }`, interfaces and their `extends`, a type alias's union,
call chains; a member TypeScript declares elsewhere is no guess at another class's method."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.codemap import CodeIndex, references
from tests.helpers.codemap_probe import probe

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
    with probe(tmp_path, {"src/streams.ts": STREAMS}) as idx:
        sink = {s.line: s.confidence for s in references(idx.db, "Sink.next")[1]}
        tap = {s.line: s.confidence for s in references(idx.db, "Tap.next")[1]}
        assert sink[26] >= 0.5 and 26 not in tap  # `Sink<T> | Observer<T>`: Sink's, declared
        assert 27 not in sink and 27 not in tap  # `Partial<Observer<T>>`: the interface's
        assert tap[29] >= 0.5 and 29 not in sink  # an element of `Tap<T>[]`, sliced
        assert sink[36] >= 0.5 and 36 not in tap  # the constructor's callback gets a Sink
        assert sink[38] >= 0.5 and 38 not in tap  # and so does operate's


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
    with probe(tmp_path, {"src/socket.ts": CONFIG}) as idx:
        assert [s.line for s in references(idx.db, "Sink.next")[1]] == [17]
        assert references(idx.db, "Tap.next")[1] == []


LINKED = """import { Sink } from "./socket";

/**
 * Writes to a {@link Sink}; see {@link Sink.next} and {@linkcode Other}.
 */
export function write(): void {}
"""


def test_doc_comment_links_are_value_references(tmp_path: Path):
    with probe(tmp_path, {"src/socket.ts": CONFIG, "src/write.ts": LINKED}) as idx:
        sink = {(s.path, s.line, s.kind) for s in references(idx.db, "src/socket.ts:Sink")[1]}
        assert ("src/write.ts", 4, "value") in sink
        method = {(s.path, s.line) for s in references(idx.db, "Sink.next")[1]}
        assert ("src/write.ts", 4) in method


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
    with probe(tmp_path, {"src/subject.ts": SUPER}) as idx:
        sites = {s.line: s.confidence for s in references(idx.db, "Subject.next")[1]}
        assert sites[7] >= 0.5
        assert 7 not in {s.line for s in references(idx.db, "Other.next")[1]}


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
    with probe(
        tmp_path, {"src/store.ts": DEFAULTS, "src/cache.ts": CACHE, "src/use.ts": CASTS}
    ) as idx:
        store = {s.line: s.confidence for s in references(idx.db, "Store.save")[1]}
        cache = {s.line: s.confidence for s in references(idx.db, "Cache.save")[1]}
        assert store[6] >= 0.5 and 6 not in cache  # `x as Store`, Store the default export
        assert cache[7] >= 0.5 and 7 not in store  # `(x as Cache).save()`
        assert 0 < store[8] < 0.5 and 0 < cache[8] < 0.5  # `(a || b)`: a guess, not dropped
