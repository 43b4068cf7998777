"""What the screen shows: streamed turns, diffs, todos, approvals, timing lines."""

from __future__ import annotations

from typing import TYPE_CHECKING

from my_agent.lazy import lazy_face

if TYPE_CHECKING:  # the same names for type checkers and the import-graph test
    from ui.views.approval import ask_approval, read_key
    from ui.views.choice import PICK_KEYS, one_of, pick_one, yes_no
    from ui.views.diff import diff_lines
    from ui.views.render import ChildTally, Renderer
    from ui.views.timing import TimingHooks

_WHERE = {
    "ChildTally": "ui.views.render",
    "Renderer": "ui.views.render",
    "TimingHooks": "ui.views.timing",
    "ask_approval": "ui.views.approval",
    "diff_lines": "ui.views.diff",
    "read_key": "ui.views.approval",
    "PICK_KEYS": "ui.views.choice",
    "one_of": "ui.views.choice",
    "pick_one": "ui.views.choice",
    "yes_no": "ui.views.choice",
}

__all__ = [
    "ChildTally",
    "PICK_KEYS",
    "Renderer",
    "TimingHooks",
    "ask_approval",
    "diff_lines",
    "one_of",
    "pick_one",
    "read_key",
    "yes_no",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
