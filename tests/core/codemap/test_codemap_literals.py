"""Receivers typed by literals and the builtins that pass elements on (`[A(), B()]`,
`{"k": A()}`, `enumerate(xs)`, `zip(a, b)`) and by `*args: T` / `**kwargs: T` (#30). Every
expected site is one jedi 0.20.1 or pyright 1.1.414 lists (their union is the referee)."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from tests.helpers.codemap_probe import probe

SHAPES = """\
class Base:
    def ping(self):
        return 1


class Other:
    def ping(self):
        return 2
"""

USE = """\
from shapes import Base, Other


def literals(*bases: Base, **others: Other):
    handlers = [Base(), Other()]
    for h in handlers:
        h.ping()
    table = {"a": Base()}
    table["a"].ping()
    for i, b in enumerate(bases):
        b.ping()
    for b, o in zip(bases, others.values()):
        o.ping()
    others["k"].ping()
"""


def test_literals_and_element_builtins_type_receivers(tmp_path: Path):
    with probe(tmp_path, {"shapes.py": SHAPES, "use.py": USE}) as idx:

        def sure(target: str) -> set[int]:
            sites = references(idx.db, target)[1]
            return {s.line for s in sites if s.path == "use.py" and s.confidence >= 0.5}

        assert sure("Base.ping") == {7, 9, 11}  # pyright: 9, 11; jedi: 7 too
        assert sure("Other.ping") == {7, 13, 14}  # pyright: 13, 14; jedi: 7, 14


ASSERTED = """\
from shapes import Base


def wrapper(*args, **kwargs):
    request = kwargs.get("request", args[0] if args else None)
    assert isinstance(request, Base)
    request.ping()


def unknown(**kwargs: "Missing"):
    kwargs.get("x").ping()
"""


def test_assert_isinstance_narrows_and_an_unknown_element_is_guessed(tmp_path: Path):
    with probe(tmp_path, {"shapes.py": SHAPES, "wrap.py": ASSERTED}) as idx:
        sites = {(s.line, s.confidence >= 0.5) for s in references(idx.db, "Base.ping")[1]}
        # pyright: 7; 11 (a dict of a type nobody defines) stays a guess, not external
        assert sites == {(7, True), (11, False)}


BRANCHES = """\
class Converter:
    def name(self):
        return "c"


def unattached():
    return None


def pick(flag, other):
    if flag:
        conv = Converter()
    else:
        conv = other.converter
    conv.name()


class Sender:
    def __init__(self, send):
        self.send = unattached
        self.send = send

    def go(self):
        self.send()
"""


def test_an_instance_from_one_branch_types_the_receiver_an_alias_does_not(tmp_path: Path):
    with probe(tmp_path, {"conv.py": BRANCHES}) as idx:
        assert {(s.line, s.confidence) for s in references(idx.db, "Converter.name")[1]} == {
            (15, 0.9)  # Converter() or something unknown: pyright lists it
        }
        # self.send is unattached or an unknown send: its call is nobody's (pyright: none)
        assert {s.line for s in references(idx.db, "unattached")[1]} == {20}


NARROWED = """\
class Command:
    def run(self):
        return 1


def invoke(callback):
    if isinstance(callback, Command):
        other = callback
        other.run()
"""


def test_a_copy_is_read_where_it_is_made_inside_a_narrowed_block(tmp_path: Path):
    with probe(tmp_path, {"m.py": NARROWED}) as idx:
        sites = {(s.line, s.confidence >= 0.5) for s in references(idx.db, "Command.run")[1]}
        assert sites == {(9, True)}  # jedi and pyright


ADDED = """\
from shapes import Base, Other


class Holder:
    def __init__(self):
        self.more = []
        self.more.append(Base())

    def run(self):
        for g in self.more:
            g.ping()


def appended():
    acc = []
    acc.append(Base())
    for a in acc:
        a.ping()
    seen = set()
    seen.add(Other())
    for s in seen:
        s.ping()
    d = {}
    d["k"] = Other()
    d["k"].ping()
"""


def test_what_is_put_in_an_empty_container_types_its_elements(tmp_path: Path):
    with probe(tmp_path, {"shapes.py": SHAPES, "use.py": ADDED}) as idx:
        for target, lines in (("Base.ping", {11, 18}), ("Other.ping", {22, 25})):
            sites = {(s.line, s.confidence >= 0.5) for s in references(idx.db, target)[1]}
            assert sites == {(n, True) for n in lines}  # jedi 0.20.1 (pyright: 25 only)
