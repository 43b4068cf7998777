"""Resolution rules found by the standard-library ground truth (bench/codemap.py): a base class
or a decorator named through its module, names that only copy an attribute, and a declared type over the assigned value's class."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.codemap import CodeIndex, references
from tests.core.codemap.test_codemap_resolve import _index as make_index
from tests.core.codemap.test_codemap_resolve import _sites

PROJECT = {
    "servers.py": """
class ThreadingMixIn:
    def process_request(self, request):
        return request


class TCPServer:
    pass
""",
    "checks.py": """
def abstract(func):
    return func
""",
    "http_server.py": """
import checks
import servers


class ThreadingHTTPServer(servers.ThreadingMixIn, servers.TCPServer):
    @checks.abstract
    def handle(self):
        return 0
""",
    "tests/test_servers.py": """
import servers as socketserver


class MyServer(socketserver.ThreadingMixIn, socketserver.TCPServer):
    pass
""",
    "strings.py": """
def String(value, prefix=None):
    return (prefix or "") + value
""",
    "dialog.py": """
from strings import String


class Dialog:
    def fix(self, result):
        result = result.string
        return String(result)


def converter(node):
    build = node.String
    return build
""",
    "bindings.py": """
class KeyBindingsBase:
    def get_bindings(self, keys):
        raise NotImplementedError


class KeyBindings(KeyBindingsBase):
    def get_bindings(self, keys):
        return [keys]


class Proxy(KeyBindingsBase):
    def __init__(self) -> None:
        self._bindings2: KeyBindingsBase = KeyBindings()

    def get_bindings(self, keys):
        return self._bindings2.get_bindings(keys)


def merged() -> list:
    found: KeyBindingsBase = KeyBindings()
    return found.get_bindings(())
""",
    "tasks.py": """
def wait(job, other):
    job.result()
    return other.build()
""",
}


@pytest.fixture
def index(tmp_path: Path):
    idx = make_index(tmp_path / "proj", PROJECT, tmp_path)
    yield idx
    idx.close()


def test_a_base_class_and_a_decorator_named_through_their_module(index):
    assert _sites(index, "ThreadingMixIn") == {
        ("http_server.py", 5): 0.95,  # import servers; servers.ThreadingMixIn
        ("tests/test_servers.py", 4): 0.95,  # import servers as socketserver
    }
    assert set(_sites(index, "TCPServer")) == {("http_server.py", 5), ("tests/test_servers.py", 4)}
    assert _sites(index, "abstract") == {("http_server.py", 6): 0.95}  # @checks.abstract


def test_a_name_that_copies_an_attribute_is_not_a_guess_everywhere(index):
    # `result = result.string` is not an alias of String (names are case-sensitive), and
    # `build = node.String` on an untyped node does not make every `x.build()` a String call
    assert _sites(index, "String") == {("dialog.py", 7): 0.95}


def test_the_declared_type_wins_over_the_assigned_class(index):
    # `self._bindings2: KeyBindingsBase = KeyBindings()`: a call of the declared type's method
    assert _sites(index, "KeyBindingsBase.get_bindings") == {
        ("bindings.py", 16): 0.9,  # self._bindings2.get_bindings in Proxy
        ("bindings.py", 21): 0.9,  # found: KeyBindingsBase = KeyBindings()
    }
    # a local's use is also the assigned class's: pyright 1.1.414 narrows `found` to
    # KeyBindings, jedi 0.20.1 keeps KeyBindingsBase (an attribute keeps its declared type)
    assert _sites(index, "bindings.py:KeyBindings.get_bindings") == {("bindings.py", 21): 0.9}


def test_a_definition_and_its_twin_in_the_stub_beside_it_are_one(tmp_path):
    root = tmp_path / "s"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "m.py").write_text("class A(Exception):\n    pass\n\n\nclass B(A):\n    pass\n")
    (root / "pkg" / "m.pyi").write_text("class A(Exception): ...\nclass B(A): ...\n")
    index = CodeIndex(root, tmp_path / "s.db")
    try:
        index.refresh()
        # jedi: m.py:5 and the stub's `class B(A)`; pyright from the stub's A: both too
        for target in ("pkg/m.py:A", "pkg/m.pyi:A"):
            found = {(s.path, s.line) for s in references(index.db, target)[1]}
            assert {("pkg/m.py", 5), ("pkg/m.pyi", 2)} <= found
    finally:
        index.close()
