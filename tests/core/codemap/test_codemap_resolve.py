"""Resolution that follows the language, on small flask-like (Python) and TypeScript projects."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.codemap import CodeIndex, query
from core.codemap.rename import rename_sites

FLASK = {
    "src/flask/__init__.py": """
from . import json as json
from .app import Flask as Flask
from .blueprints import Blueprint as Blueprint
from .helpers import url_for as url_for
""",
    "src/flask/helpers.py": """
def url_for(endpoint: str, **values) -> str:
    return "/" + endpoint


def redirect(location: str) -> str:
    return url_for(location)
""",
    "src/flask/json/__init__.py": """
import json as _json


def dumps(obj, **kwargs) -> str:
    return _json.dumps(obj, **kwargs)


def loads(s):
    return _json.loads(s)
""",
    "src/flask/sansio/__init__.py": "",
    "src/flask/sansio/app.py": """
from ..helpers import url_for


class App:
    def add_url_rule(self, rule, endpoint=None, view_func=None):
        self.rules = [rule]

    def route(self, rule):
        def decorator(f):
            self.add_url_rule(rule, None, f)
            return f

        return decorator

    def link(self):
        return url_for("index")
""",
    "src/flask/sansio/blueprints.py": """
class Blueprint:
    def add_url_rule(self, rule, endpoint=None, view_func=None):
        self.deferred = [rule]
""",
    "src/flask/app.py": """
from .sansio.app import App


class Flask(App):
    def run(self):
        self.add_url_rule("/health")
""",
    "src/flask/blueprints.py": """
from .sansio.blueprints import Blueprint as SansioBlueprint


class Blueprint(SansioBlueprint):
    pass
""",
    "tests/test_basic.py": """
import flask
from flask import Flask, url_for
from flask import json as fjson
from flask.helpers import url_for as uf


def test_url(app: flask.Flask):
    app.add_url_rule("/", "index", lambda: "")
    assert flask.url_for("index") == "/"
    assert url_for("index") == uf("index")


def test_new():
    app = Flask(__name__)
    app.add_url_rule("/a", "a")
    bp = flask.Blueprint("bp", __name__)
    bp.add_url_rule("/b", "b")


class Helper:
    def __init__(self):
        self.app = Flask("x")

    def go(self):
        self.app.add_url_rule("/c")


def test_json(client):
    fjson.dumps({})
    import json

    json.dumps({})
    client.add_url_rule("/d")
""",
    "tools/pkg/__init__.py": "from .core import *\n",
    "tools/pkg/core.py": """
__all__ = ["public"]


def public():
    return 1


def hidden():
    return 2
""",
    "src/flask/cells.py": """
def cell_len(text):
    return len(text)


class Text:
    def _rule(pattern):
        return pattern

    rules = [_rule("x")]

    @property
    def cell_len(self):
        return cell_len(self.plain)
""",
    "tools/keys.py": """
from flask.app import Flask


class Registry:
    def add(self, key):
        return key


class Proxy:
    def __init__(self, app: Flask, registry: Registry):
        self.app = app  # a copy of a typed parameter
        self.registry = registry

    def wire(self):
        handle = self.registry.add  # a bound method under another name
        handle("x")
        self.app.add_url_rule("/p")
""",
    "tools/use.py": """
import pkg

pkg.public()
pkg.hidden()
""",
}

TYPESCRIPT = {
    "src/util/format.ts": "export function formatPrice(c: number): string {\n  return c.toFixed(2);\n}\n",
    "src/util/math.ts": "export function sum(a: number[]): number {\n  return a.length;\n}\n",
    "src/util/index.ts": "export { formatPrice } from './format';\nexport * from './math';\n",
    "src/io.ts": "export function readFile(p: string): string {\n  return p;\n}\n",
    "src/helpers/util.ts": """export namespace util {
  export const assertEqual = (a: number, b: number): boolean => a === b;
}
""",
    "src/check.ts": """import { util } from './helpers/util.js';

export function check(value: { toString(): string }) {
  util.assertEqual(1, 2);
  return value.toString();
}
""",
    "src/store.ts": """export class Base {
  save(): void {}
}

export class Store extends Base {
  add(): void {
    this.save();
  }
}
""",
    "src/app.ts": """import { formatPrice as fp, sum } from './util';
import * as util from './util';
import { Store } from './store';
import { readFile } from 'fs';

class App {
  private store: Store;
  constructor(private other: Store) {
    this.store = new Store();
  }
  run(s: Store) {
    s.add();
    this.store.save();
    this.other.add();
    fp(1);
    util.formatPrice(2);
    sum([1]);
    readFile('x');
  }
}

const st = new Store();
st.add();
""",
}


def _index(root: Path, files: dict[str, str], tmp_path: Path) -> CodeIndex:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text.lstrip("\n"))
    idx = CodeIndex(root, tmp_path / "map.db")
    idx.refresh()
    return idx


@pytest.fixture
def flask_index(tmp_path: Path):
    idx = _index(tmp_path / "flask", FLASK, tmp_path)
    yield idx
    idx.close()


@pytest.fixture
def ts_index(tmp_path: Path):
    idx = _index(tmp_path / "ts", TYPESCRIPT, tmp_path)
    yield idx
    idx.close()


def _sites(idx: CodeIndex, target: str) -> dict[tuple[str, int], float]:
    """The uses resolved to `target` (the import lines naming it left out)."""
    _, sites = query.references(idx.db, target)
    return {(s.path, s.line): s.confidence for s in sites if s.kind != "import"}


def test_a_name_re_exported_by_a_package_init_is_followed(flask_index):
    sites = _sites(flask_index, "url_for")
    assert sites == {
        ("src/flask/helpers.py", 6): 0.95,  # same file
        ("src/flask/sansio/app.py", 16): 0.95,  # relative import from ..helpers
        ("tests/test_basic.py", 9): 0.95,  # flask.url_for through flask/__init__.py
        ("tests/test_basic.py", 10): 0.95,  # from flask import url_for, and the alias uf
    }


def test_an_external_module_never_matches_a_same_named_project_package(flask_index):
    sites = _sites(flask_index, "src/flask/json/__init__.py:dumps")
    assert sites == {("tests/test_basic.py", 29): 0.95}  # not `_json.dumps`, not `json.dumps`


def test_receivers_with_visible_types_and_the_class_hierarchy(flask_index):
    sites = _sites(flask_index, "App.add_url_rule")
    confident = {site for site, conf in sites.items() if conf >= 0.5}
    assert confident == {
        ("src/flask/sansio/app.py", 10),  # self.add_url_rule in a nested function
        ("src/flask/app.py", 6),  # self in a subclass
        ("tests/test_basic.py", 8),  # annotated parameter app: flask.Flask
        ("tests/test_basic.py", 15),  # app = Flask(__name__)
        ("tests/test_basic.py", 25),  # self.app = Flask("x")
        ("tools/keys.py", 17),  # self.app = app, app: Flask
    }
    assert sites[("tests/test_basic.py", 33)] < 0.5  # client: unknown type, listed as uncertain
    assert ("tests/test_basic.py", 17) not in sites  # bp is a Blueprint
    blueprint = _sites(flask_index, "sansio/blueprints.py:Blueprint.add_url_rule")
    assert {s for s, c in blueprint.items() if c >= 0.5} == {("tests/test_basic.py", 17)}


def test_star_import_honours_all(flask_index):
    assert _sites(flask_index, "public") == {
        ("tools/use.py", 3): 0.95,
        ("tools/pkg/core.py", 1): 0.95,  # `__all__ = ["public"]` names it (jedi, pyright too)
    }
    assert _sites(flask_index, "hidden")[("tools/use.py", 4)] < 0.5


def test_typescript_re_exports_aliases_and_receivers(ts_index):
    assert _sites(ts_index, "formatPrice") == {("src/app.ts", 15): 0.95, ("src/app.ts", 16): 0.95}
    assert _sites(ts_index, "sum") == {("src/app.ts", 17): 0.95}
    assert _sites(ts_index, "Store.add") == {
        ("src/app.ts", 12): 0.9,  # parameter s: Store
        ("src/app.ts", 14): 0.9,  # constructor(private other: Store)
        ("src/app.ts", 23): 0.9,  # const st = new Store()
    }
    assert _sites(ts_index, "Base.save") == {
        ("src/store.ts", 7): 0.9,  # this.save() inherited
        ("src/app.ts", 13): 0.9,  # this.store = new Store(); Store extends Base
    }
    assert _sites(ts_index, "readFile") == {}  # from 'fs', not src/io.ts


def test_rename_dry_run_lists_definition_imports_re_exports_and_calls(flask_index):
    defs, edits = rename_sites(flask_index.db, "url_for")
    assert [(e.path, e.line, e.kind) for e in edits] == [
        ("src/flask/__init__.py", 4, "import"),  # the re-export
        ("src/flask/helpers.py", 1, "definition"),
        ("src/flask/helpers.py", 6, "call"),
        ("src/flask/sansio/app.py", 1, "import"),
        ("src/flask/sansio/app.py", 16, "call"),
        ("tests/test_basic.py", 2, "import"),
        ("tests/test_basic.py", 4, "import"),  # `url_for as uf`
        ("tests/test_basic.py", 9, "call"),
        ("tests/test_basic.py", 10, "call"),
    ]


def test_the_answer_counts_uncertain_sites_and_marks_them_last(flask_index, tmp_path):
    from core.codemap import CodeMap

    cmap = CodeMap(flask_index.root, tmp_path / "home")
    lines = cmap.references("App.add_url_rule").splitlines()
    cmap.close()
    assert lines[0] == (
        "7 call sites in 4 files across tests/, src/, tools/; 1 uncertain (matched by name "
        "only, listed apart)"
    )
    assert (
        lines[-1] == 'tests/test_basic.py:33 in test_json: client.add_url_rule("/d")  [uncertain]'
    )


def test_copies_of_typed_values_and_bound_methods_under_another_name(flask_index):
    assert _sites(flask_index, "Registry.add") == {
        ("tools/keys.py", 15): 0.9,  # handle = self.registry.add: used as a value
    }  # `handle()` (16) is a use of `handle` (jedi, pyright); impact follows it
    assert _sites(flask_index, "App.add_url_rule")[("tools/keys.py", 17)] == 0.9


def test_typescript_namespace_members_and_builtin_methods(ts_index):
    assert _sites(ts_index, "assertEqual") == {("src/check.ts", 4): 0.95}
    (ts_index.root / "src" / "fmt.ts").write_text(
        "export function toString(): string {\n  return '';\n}\n"
    )
    ts_index.refresh()
    assert _sites(ts_index, "fmt.ts:toString") == {}  # value.toString() is the object's own


def test_a_class_body_sees_its_names_and_its_methods_do_not(flask_index):
    assert _sites(flask_index, "Text._rule") == {("src/flask/cells.py", 9): 0.95}
    assert _sites(flask_index, "Text.cell_len") == {}  # the bare call is the module's function
