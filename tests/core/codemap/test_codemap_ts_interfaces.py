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


TYPES = """export interface Observer<T> {
  next: (value: T) => void;
  complete: () => void;
}
export interface Unsubscribable {
  unsubscribe(): void;
}
"""

SUBSCRIBERS = """import { Observer, Unsubscribable } from "./types";
export class Subscriber<T> implements Observer<T>, Unsubscribable {
  next(value: T): void {}
  complete(): void {}
  unsubscribe(): void {}
}
export class Sibling implements Observer<string> {
  next(value: string): void {}
  complete(): void {}
}
export class Other {
  complete(): void {}
}
"""

USES = """import { Observer, Unsubscribable } from "./types";
import { Other, Sibling } from "./subscribers";
export function finish(o: Observer<number>, u: Unsubscribable, s: Sibling, x: Other): void {
  o.complete();
  u.unsubscribe();
  s.complete();
  x.complete();
}
export function drain(observers: Observer<number>[]): void {
  observers.shift()!.complete();
  observers.at(-1)?.complete();
}
"""


def _interfaces(tmp_path: Path):
    files = {"src/types.ts": TYPES, "src/subscribers.ts": SUBSCRIBERS, "src/uses.ts": USES}
    return probe(tmp_path, files)


def test_a_class_method_is_used_through_the_interface_it_implements(tmp_path: Path):
    with _interfaces(tmp_path) as idx:
        found = {
            (s.path, s.line): s.confidence for s in references(idx.db, "Subscriber.complete")[1]
        }
        assert found == {  # the interface's member, a sibling's, calls typed by either
            ("src/types.ts", 3): 0.9,
            ("src/subscribers.ts", 9): 0.9,
            ("src/uses.ts", 4): 0.9,
            ("src/uses.ts", 6): 0.9,
            ("src/uses.ts", 10): 0.9,
            ("src/uses.ts", 11): 0.9,
        }
        assert [(s.path, s.line) for s in references(idx.db, "Subscriber.unsubscribe")[1]] == [
            ("src/types.ts", 6),
            ("src/uses.ts", 5),
        ]


def test_a_class_outside_the_interface_shares_nothing(tmp_path: Path):
    with _interfaces(tmp_path) as idx:
        assert [(s.path, s.line) for s in references(idx.db, "Other.complete")[1]] == [
            ("src/uses.ts", 7)
        ]


CONTAINERS = """export class Tuple<Items extends ReadonlyArray<unknown> = []> extends Array<Items[number]> {
  override concat(...arr: any[]) {
    return super.concat.apply(this, arr);
  }
  prepend(...arr: any[]) {
    return new Tuple(...arr.concat(this));
  }
}
export class Registry<K, V> implements Map<K, V> {
  get(key: K): V | undefined {
    return undefined;
  }
}
export function use(xs: number[], m: Map<string, number>, names: Set<string>) {
  xs.concat([1]);
  m.get("a");
  names.has("a");
  return [xs, m];
}
"""


def test_a_builtin_containers_method_overridden_is_used_on_every_such_container(tmp_path: Path):
    with probe(tmp_path, {"src/tuple.ts": CONTAINERS}) as idx:
        found = {s.line: s.confidence for s in references(idx.db, "Tuple.concat")[1]}
        assert found == {3: 0.9, 6: 0.9, 15: 0.9}  # super's, a rest parameter's, an array's
        assert [s.line for s in references(idx.db, "Registry.get")[1]] == [16]  # not a Set's
