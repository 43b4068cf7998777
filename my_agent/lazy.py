"""Package faces that load a name's module when the name is first used (PEP 562).

A face lists its names once, name → module; importing the face costs nothing until a name is
read, so a room can present one face without making every caller pay for every module behind it
(the REPL's prompt draws before the session's modules, `-p` never loads Rich)."""

from __future__ import annotations

import importlib

TYPE_CHECKING = (
    False  # not `typing`'s: `cli.py --help` imports this module and typing costs more than it
)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def lazy_face(
    package: str, where: dict[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """`__getattr__` and `__dir__` for `package`; `where` maps a name to its module, or to
    `module:attribute` when the face gives the name another spelling."""

    def __getattr__(name: str) -> Any:
        try:
            module, _, attr = where[name].partition(":")
        except KeyError:
            raise AttributeError(f"module {package!r} has no attribute {name!r}") from None
        return getattr(importlib.import_module(module), attr or name)

    def __dir__() -> list[str]:
        return sorted(where)

    return __getattr__, __dir__
