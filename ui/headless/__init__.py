"""Headless runs (`-p`): the answer, JSON or stream-JSON on stdout, nothing asked."""

from __future__ import annotations

from typing import TYPE_CHECKING

from my_agent.lazy import lazy_face

if TYPE_CHECKING:  # the same names for type checkers and the import-graph test
    from ui.headless.run import run_print

_WHERE = {
    "run_print": "ui.headless.run",
}

__all__ = [
    "run_print",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
