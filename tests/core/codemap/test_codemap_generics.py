"""Generic classes and functions (#30): a class whose bases are subscripted (`Base[Foo]`,
`Generic[T]`) keeps its hierarchy, and a type variable is put back where a generic is used
with arguments (`Box[Foo]`, `class Child(Base[Foo])`, `first(xs: Sequence[T]) -> T`). Every
expected site is one jedi 0.20.1 and pyright 1.1.414 both list."""

from __future__ import annotations

from pathlib import Path

from core.codemap import references
from tests.helpers.codemap_probe import probe

MODELS = """\
from typing import Generic, Iterator, Sequence, TypeVar

T = TypeVar("T")


class Foo:
    def ping(self):
        return 1


class Bar:
    def ping(self):
        return 2


class Base(Generic[T]):
    def describe(self) -> str:
        return "base"

    def held(self) -> T:
        return self.value


class Child(Base[Bar]):
    def describe(self) -> str:
        return super().describe() + self.tail()

    def tail(self) -> str:
        return "!"


class Box(Generic[T]):
    def __init__(self, item: T) -> None:
        self.item = item

    def get(self) -> T:
        return self.item

    def __iter__(self) -> Iterator[T]:
        yield self.item


def first(xs: Sequence[T]) -> T:
    return xs[0]
"""

USE = """\
from models import Box, Child, Foo, first


def generics(box: Box[Foo], foos: list[Foo], child: Child):
    box.get().ping()
    box.item.ping()
    for x in box:
        x.ping()
    first(foos).ping()
    child.describe()
    child.held().ping()
"""


def test_type_variables_are_filled_in_where_a_generic_is_used(tmp_path: Path):
    with probe(tmp_path, {"models.py": MODELS, "use.py": USE}) as idx:

        def listed(target: str) -> set[tuple[str, int, bool]]:
            sites = references(idx.db, target)[1]
            return {(s.path, s.line, s.confidence >= 0.5) for s in sites if s.kind == "call"}

        assert listed("Foo.ping") == {("use.py", n, True) for n in (5, 6, 8, 9)}
        assert listed("Bar.ping") == {("use.py", 11, True)}
        assert listed("Base.describe") == {("models.py", 26, True)}  # super() in Child
        assert listed("Child.describe") == {("use.py", 10, True)}


STRINGS = """\
import typing as t
from typing import TypeVar, cast


class Command:
    pass


FC = t.TypeVar("FC", bound="t.Callable | Command")
CC = TypeVar("CC", bound="Command")
x = cast("Command", None)
y = cast("list[Command]", None)
Alias = t.Union["Command", int]
z: "Command | None" = None
table = {"Command": 1}
w = table["Command"]
"""


def test_strings_typing_reads_as_types_are_references(tmp_path: Path):
    with probe(tmp_path, {"m.py": STRINGS}) as idx:
        # pyright 1.1.414's references: not the dict's key (15) nor its index (16)
        lines = {s.line for s in references(idx.db, "m.py:Command")[1]}
        assert lines == {9, 10, 11, 12, 13, 14}
