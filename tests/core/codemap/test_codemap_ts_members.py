"""TypeScript class members the compiler knows and the code map missed (#30): methods written
as class fields (`validate = (x) => {…}`), overload signatures of a method's relatives, members
related through `implements Omit<Store<T>, …>`, and arrays folded or mapped by a callback."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from core.codemap.fileview import ViewCache
from tests.helpers.codemap_probe import probe

FIELDS = """function batch(fn: () => void) { fn(); }
export class Form {
  static create = (name: string): Form => new Form();
  run(x: number): number { return x; }
  validate = (cause: number) => {
    batch(() => { this.run(cause); });
  };
  submit() { this.validate(1); }
}
export class Other {
  run(x: number): number { return x; }
}
"""

MADE = """import { Form } from "./form";
Form.create("a").run(2);
"""


def _sites(idx, target: str) -> list[tuple[str, int, float]]:
    found = references(idx.db, target, cache=ViewCache())[1]
    return [(s.path, s.line, s.confidence) for s in found]


def test_a_method_written_as_a_class_field_is_a_method(tmp_path: Path):
    """`this` inside a field's arrow function is the instance, as in any method: the call is
    Form.run's, sure, not a name match beside Other.run's; the field itself has sites."""
    with probe(tmp_path, {"src/form.ts": FIELDS, "src/use.ts": MADE}) as idx:
        assert _sites(idx, "Form.run") == [("src/form.ts", 6, 0.9), ("src/use.ts", 2, 0.9)]
        assert _sites(idx, "Other.run") == []
        assert _sites(idx, "Form.validate") == [("src/form.ts", 8, 0.9)]


def test_a_method_written_as_a_class_field_in_javascript(tmp_path: Path):
    source = FIELDS.replace("(x: number): number", "(x)").replace("(cause: number)", "(cause)")
    source = source.replace("(name: string): Form =>", "(name) =>")
    source = source.replace("(fn: () => void)", "(fn)")
    with probe(tmp_path, {"src/form.js": source}) as idx:
        assert _sites(idx, "Form.run") == [("src/form.js", 6, 0.9)]


LIKE = """export interface FormLike {
  handleSubmit(): Promise<void>;
  handleSubmit(meta: string): Promise<void>;
}
"""

OVERLOADED = """import { FormLike } from "./like";
export class FormApi implements FormLike {
  handleSubmit(): Promise<void>;
  handleSubmit(meta: string): Promise<void>;
  handleSubmit(meta?: string): Promise<void> { return Promise.resolve(); }
}
export class GroupApi implements FormLike {
  handleSubmit(): Promise<void>;
  handleSubmit(meta: string): Promise<void>;
  async handleSubmit(meta?: string): Promise<void> {}
}
"""


def test_every_overload_of_a_relative_is_listed_and_none_of_the_target_s_own(tmp_path: Path):
    """tsserver's findReferences of FormApi.handleSubmit lists each declaration of the
    interface member and of the sibling implementing it, overloads included; the target's
    own overloads are the target."""
    with probe(tmp_path, {"src/like.ts": LIKE, "src/api.ts": OVERLOADED}) as idx:
        lines = {(p, n) for p, n, _ in _sites(idx, "FormApi.handleSubmit")}
        assert lines == {
            ("src/like.ts", 2),
            ("src/like.ts", 3),
            ("src/api.ts", 8),
            ("src/api.ts", 9),
            ("src/api.ts", 10),
        }


STORE = """export class Store<T> {
  constructor(private value: T) {
    this.get = this.get.bind(this);
  }
  setState(v: T) { this.value = v; }
  public get() { return this.value; }
}
export class ReadonlyStore<T> implements Omit<Store<T>, 'setState'> {
  constructor(private value: T) {}
  public get() { return this.value; }
}
"""


def test_implementing_omit_of_a_class_relates_the_members_it_keeps(tmp_path: Path):
    with probe(tmp_path, {"src/store.ts": STORE}) as idx:
        lines = {(p, n) for p, n, _ in _sites(idx, "ReadonlyStore.get")}
        assert lines == {("src/store.ts", 3), ("src/store.ts", 6)}


FOLDED = """export class Field {
  end(): void {}
}
export function fields(): Field[] { return []; }
export function check() {
  const found = fields().reduce((acc, f) => acc.concat([f]), [] as Field[]);
  for (const f of found) {
    f.end();
  }
  fields().map((f) => f)[0].end();
}
"""


def test_what_a_callback_folds_or_maps_an_array_into_is_unknown_not_external(tmp_path: Path):
    """`xs.reduce(cb, init)` gives what the callback gives: a call on it may be Field.end's
    (listed as a guess), never dropped as another library's."""
    with probe(tmp_path, {"src/fields.ts": FOLDED}) as idx:
        lines = [(p, n) for p, n, _ in _sites(idx, "Field.end")]
        assert lines == [("src/fields.ts", 8), ("src/fields.ts", 10)]


CODEC = """export class Codec {
  encode(value: string): string { return value; }
}
"""

PLATFORM = """const bytes = new TextEncoder();
export const closing = bytes.encode("</body>");
export const reply = Response.json({ ok: true });
"""


def test_the_platform_s_classes_are_not_the_project_s(tmp_path: Path):
    """`new TextEncoder()` in a module that neither defines nor imports it is the platform's
    (the compiler knows it as a global): its `encode` is no guess at Codec.encode."""
    with probe(tmp_path, {"src/codec.ts": CODEC, "src/page.ts": PLATFORM}) as idx:
        assert _sites(idx, "Codec.encode") == []


def test_a_platform_name_a_javascript_file_requires_is_the_project_s(tmp_path: Path):
    """In JavaScript a `require` binds it without an import the index knows: Worker is the
    project's class there, its call a guess, not the platform's Worker."""
    files = {
        "worker.js": "class Worker { send() { return 2; } }\nmodule.exports = { Worker };\n",
        "use.js": "const { Worker } = require('./worker');\nnew Worker().send();\n",
    }
    with probe(tmp_path, files) as idx:
        assert [(p, n) for p, n, _ in _sites(idx, "Worker.send")] == [("use.js", 2)]


DEDUPED = """export class Field {
  end(): void {}
}
export function close(fields: Field[]) {
  for (const f of Array.from(new Set(fields))) {
    f.end();
  }
}
"""


def test_an_element_of_what_the_platform_hands_back_is_unknown_not_external(tmp_path: Path):
    """`Array.from(new Set(xs))` is the platform's array, but its elements are xs's: a call
    on one is listed (a guess), not dropped as another library's."""
    with probe(tmp_path, {"src/close.ts": DEDUPED}) as idx:
        assert [(p, n) for p, n, _ in _sites(idx, "Field.end")] == [("src/close.ts", 6)]
