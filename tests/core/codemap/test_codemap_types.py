"""Receivers typed through unions (annotations, `Union` aliases, a conditional's branches),
containers (`list[Item]`, `dict[str, Item]`: indexing, iteration, `.get`, `.items`,
`list(x)`), tuples a function returns, properties and pytest fixtures (#30). The expected
lines of use.py are pyright 1.1.414's references on the same files (jedi 0.20.1 lists the
union sites for both classes too); pyright knows no fixtures: those follow pytest's rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.codemap import CodeIndex, impact, references
from tests.helpers.codemap_probe import probe

MODELS = """\
from typing import Optional, Union


class Router:
    def url_for(self, name):
        return name


class App:
    def url_for(self, name):
        return name

    @property
    def router(self) -> Router:
        return Router()


class Item:
    def close(self):
        return None


Provider = Union[Router, App]


def make_items() -> list[Item]:
    return [Item()]


def table() -> dict[str, Item]:
    return {"a": Item()}


def pair():
    return Router(), App()


def pick(flag) -> Optional[Router]:
    return Router() if flag else None
"""

USE = """\
from models import App, Item, Provider, Router, make_items, pair, table


def by_union(p: Router | App, q: Provider):
    p.url_for("a")
    q.url_for("b")


def by_branch(flag):
    thing = Router() if flag else App()
    thing.url_for("c")


def by_elements(items: list[Item], named: dict[str, Item]):
    items[0].close()
    for item in items:
        item.close()
    for key, value in named.items():
        value.close()
    named.get("k").close()
    for it in make_items():
        it.close()
    table()["a"].close()
    copied = list(items)
    copied[0].close()


def by_parts():
    router, app = pair()
    router.url_for("d")
    app.url_for("e")


def by_property(app: App):
    app.router.url_for("f")
    router = app.router
    router.url_for("g")
"""

CONFTEST = """\
import pytest

from models import App


@pytest.fixture
def app():
    return App()


@pytest.fixture
def served(app):
    yield app.router
"""

TESTS = """\
def test_app(app, served):
    app.url_for("h")
    served.url_for("i")
"""

EXTRA = """\
import asyncio
from typing import Self, cast

from models import App, Item, Router


class Session:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return None

    def start(self) -> Self:
        return self

    def item(self):
        return Item()


class Lock:
    def __enter__(self) -> Router:
        return Router()

    def __exit__(self, *exc):
        return None


async def fetch() -> App:
    return App()


async def run(thing, app=App()):
    with Session() as s:
        s.item().close()
    with Lock() as r:
        r.url_for("j")
    s.start().item().close()
    cast(Item, thing).close()
    fetched = await fetch()
    fetched.url_for("k")
    app.url_for("l")
"""


@pytest.fixture
def index(tmp_path: Path):
    root = tmp_path / "p"
    root.mkdir()
    for name, text in [
        ("models.py", MODELS),
        ("use.py", USE),
        ("conftest.py", CONFTEST),
        ("tests/test_use.py", TESTS),
        ("extra.py", EXTRA),
    ]:
        (root / name).parent.mkdir(exist_ok=True)
        (root / name).write_text(text)
    idx = CodeIndex(root, tmp_path / "m.db")
    idx.refresh()
    yield idx
    idx.close()


def _sure(idx: CodeIndex, target: str, path: str = "use.py") -> set[int]:
    sites = references(idx.db, target)[1]
    return {s.line for s in sites if s.path == path and s.confidence >= 0.5}


def test_unions_aliases_and_branches_name_every_member(index):
    assert _sure(index, "Router.url_for") == {5, 6, 11, 30, 35, 37}
    assert _sure(index, "App.url_for") == {5, 6, 11, 31}


def test_container_elements_type_their_receivers(index):
    assert _sure(index, "Item.close") == {15, 17, 19, 20, 22, 23, 25}
    guessed = [s for s in references(index.db, "Item.close")[1] if s.confidence < 0.5]
    assert guessed == []


def test_context_managers_casts_awaits_defaults_and_self(index):
    assert _sure(index, "Router.url_for", "extra.py") == {37}  # Lock.__enter__ -> Router
    assert _sure(index, "App.url_for", "extra.py") == {41, 42}  # await fetch(); app=App()
    assert _sure(index, "Item.close", "extra.py") == {35, 38, 39}  # -> Self; cast(Item, …)
    assert _sure(index, "Session.item", "extra.py") == {35, 38}


def test_fixtures_are_typed_by_what_they_return_or_yield(index):
    assert _sure(index, "App.url_for", "tests/test_use.py") == {2}  # app: App()
    assert _sure(index, "Router.url_for", "tests/test_use.py") == {3}  # served: app.router
    assert _sure(index, "App.router", "conftest.py") == {13}


ALIASES = """\
class Option:
    pass


def evolve(x):
    return x


class Attribute:
    def evolve(self):
        return self


def make(cls=None):
    if cls is None:
        cls = Option
    return cls()


renamed = evolve
__all__ = ["Option", "renamed"]
"""


def test_through_another_name_only_a_functions_calls_count(tmp_path: Path):
    root = tmp_path / "a"
    root.mkdir()
    (root / "m.py").write_text(ALIASES + "renamed(1)\n")
    idx = CodeIndex(root, tmp_path / "a.db")
    try:
        idx.refresh()
        option = {(s.line, s.kind) for s in references(idx.db, "Option")[1]}
        assert option == {(16, "value"), (21, "export")}  # not `cls()`, as pyright and jedi
        evolve = {(s.line, s.kind) for s in references(idx.db, "m.py:evolve")[1]}
        assert evolve == {(20, "value")}  # the module's evolve, not the method; `renamed(1)`
        # names `renamed` (jedi, pyright), but it runs evolve: impact follows it
        assert "m.py" in {d.path for d in impact(idx.db, "m.py:evolve").dependents}
    finally:
        idx.close()


FLOW = """\
class Ctx:
    def invoke(self):
        return 1


class Other:
    def invoke(self):
        return 2


def make():
    return Other()


def run(items):
    ctx = Ctx()
    ctx.invoke()
    for ctx in items:
        ctx.invoke()


def declared(flag):
    handler: Ctx = make()
    handler.invoke()
    if flag:
        handler = Ctx()
    handler.invoke()


def later(flag):
    thing = Other()
    thing.invoke()
    thing = Ctx()
    thing.invoke()
"""


def test_a_use_sees_the_bindings_above_it_and_a_declared_type(tmp_path: Path):
    with probe(tmp_path, {"flow.py": FLOW}) as idx:
        assert _sure(idx, "Ctx.invoke", "flow.py") == {17, 24, 27, 34}  # as pyright
        assert _sure(idx, "Other.invoke", "flow.py") == {32}


def test_names_a_star_import_brings_are_found_as_values(tmp_path: Path):
    root = tmp_path / "s"
    root.mkdir()
    (root / "a.py").write_text("class Foo:\n    pass\n\n\ndef helper():\n    return 1\n")
    (root / "b.py").write_text(
        "from a import *\n\n\ndef use(y, items):\n    cls = Foo\n    if isinstance(y, Foo):\n"
        "        return [helper, cls]\n    return sorted(items, key=helper)\n"
    )
    idx = CodeIndex(root, tmp_path / "s.db")
    try:
        idx.refresh()
        assert _sure(idx, "Foo", "b.py") == {5, 6}  # as pyright
        assert _sure(idx, "helper", "b.py") == {7, 8}
    finally:
        idx.close()


GENERIC = """\
from typing import Generic, NewType, TypeVar


class Base:
    def ping(self):
        return 1


class Other:
    def ping(self):
        return 2


T = TypeVar("T")
B = TypeVar("B", bound=Base)
Special = NewType("Special", Base)


class Box(Generic[T]):
    def get(self) -> T:
        raise NotImplementedError


def first(x: B) -> B:
    x.ping()
    return x


def special(s: Special, box: Box[Other]):
    s.ping()
    box.get().ping()
"""


def test_type_variables_and_new_types_name_their_bound(tmp_path: Path):
    with probe(tmp_path, {"gen.py": GENERIC}) as idx:
        assert _sure(idx, "Base.ping", "gen.py") == {25, 30}  # as pyright
        # `Box[Other].get() -> T` is Other's, as pyright (test_codemap_generics.py)
        assert _sure(idx, "Other.ping", "gen.py") == {31}


def test_a_renamed_import_is_listed_but_its_uses_are_the_new_names(tmp_path: Path):
    root = tmp_path / "r"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("def f():\n    return 1\n")
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "b.py").write_text(
        "from .a import f as _f\nfrom . import a\n\n\ndef use():\n    _f()\n    a.f()\n"
    )
    idx = CodeIndex(root, tmp_path / "r.db")
    try:
        idx.refresh()
        # pyright: the import (1) and `a.f()` (7); `_f()` is a use of `_f`, as for jedi
        assert {s.line for s in references(idx.db, "pkg/a.py:f")[1]} == {1, 7}
        callers = {(d.path, d.symbol) for d in impact(idx.db, "pkg/a.py:f").dependents}
        assert ("pkg/b.py", "use") in callers
    finally:
        idx.close()
