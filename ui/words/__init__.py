"""The words of the screen in English and Chinese, and core's lines translated."""

from __future__ import annotations

from typing import TYPE_CHECKING

from my_agent.lazy import lazy_face

if TYPE_CHECKING:  # the same names for type checkers and the import-graph test
    from ui.words.core_lines import relative_paths
    from ui.words.strings import Strings

_WHERE = {
    "Strings": "ui.words.strings",
    "relative_paths": "ui.words.core_lines",
}

__all__ = [
    "Strings",
    "relative_paths",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
