"""What the screen shows: streamed turns, diffs, todos, approvals, timing lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from my_agent.lazy import lazy_face

if TYPE_CHECKING:  # the same names for type checkers and the import-graph test
    from ui.views.approval import ask_approval, read_key
    from ui.views.diff import diff_lines
    from ui.views.render import Renderer
    from ui.views.timing import TimingHooks

_WHERE = {
    "Renderer": "ui.views.render",
    "TimingHooks": "ui.views.timing",
    "ask_approval": "ui.views.approval",
    "diff_lines": "ui.views.diff",
    "read_key": "ui.views.approval",
}

__all__ = [
    "Renderer",
    "TimingHooks",
    "ask_approval",
    "diff_lines",
    "read_key",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
