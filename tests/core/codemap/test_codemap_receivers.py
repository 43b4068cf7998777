"""Receivers typed by what a function returns (its annotation, `Optional` and `X | None`
included) and by an `isinstance` branch: calls on them are resolved, not guessed (#30 item 2)."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from tests.helpers.codemap_probe import probe

CONTEXT = """class Context:
    def invoke(self, f):
        return f()


class Other:
    def invoke(self, f):
        return f


def current() -> "Context | None":
    return None
"""

USE = """from typing import Optional

from ctx import Context, Other, current


def make() -> Optional[Other]:
    return Other()


def run(thing, f):
    ctx = current()
    ctx.invoke(f)  # Context.invoke, through current()'s annotation
    other = make()
    other.invoke(f)  # Other.invoke
    if isinstance(thing, Context):
        thing.invoke(f)  # Context.invoke: the branch says so
    elif isinstance(thing, Other):
        thing.invoke(f)  # Other.invoke
    thing.invoke(f)  # not known here
"""


def test_returns_and_isinstance_type_receivers(tmp_path: Path):
    with probe(tmp_path, {"ctx.py": CONTEXT, "use.py": USE}) as idx:

        def sure(target: str) -> set[int]:
            sites = references(idx.db, target)[1]
            return {s.line for s in sites if s.confidence >= 0.5 and s.path == "use.py"}

        assert sure("Context.invoke") == {12, 16}
        assert sure("Other.invoke") == {14, 18}
        guessed = {s.line for s in references(idx.db, "Context.invoke")[1] if s.confidence < 0.5}
        assert guessed == {19}


MODELS = """class URL:
    @property
    def host(self) -> str:
        return ""


class Request:
    @property
    def url(self) -> URL:
        return URL()


class Response:
    def __init__(self, request: Request):
        self._request = request

    @property
    def request(self) -> Request:
        return self._request


def show(response: Response):
    return response.request.url.host  # Request.url, URL.host through the properties
"""


def test_a_property_chain_follows_return_annotations(tmp_path: Path):
    with probe(tmp_path, {"models.py": MODELS}) as idx:
        for target in ("Request.url", "URL.host", "Response.request"):
            sites = references(idx.db, target)[1]
            assert {(s.line, s.kind) for s in sites if s.confidence >= 0.5} == {
                (23, "attribute")
            }, target
