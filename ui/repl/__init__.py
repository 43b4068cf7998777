"""The interactive REPL: its loop, prompt, input forms (`!`, `@`, paste) and questions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from my_agent.lazy import lazy_face

if TYPE_CHECKING:  # the same names for type checkers and the import-graph test
    from ui.repl.loop import run_repl

_WHERE = {
    "run_repl": "ui.repl.loop",
}

__all__ = [
    "run_repl",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
