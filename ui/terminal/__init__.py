"""Terminal plumbing: styled lines, fitting, focus reports, notifications."""

from __future__ import annotations

from typing import TYPE_CHECKING

from my_agent.lazy import lazy_face

if TYPE_CHECKING:  # the same names for type checkers and the import-graph test
    from ui.terminal.fitting import cell_len, fit, terminal_width
    from ui.terminal.focus import Focus
    from ui.terminal.notify import HeadlessNotifier, Notifier
    from ui.terminal.screen import LazyConsole, styled

_WHERE = {
    "Focus": "ui.terminal.focus",
    "HeadlessNotifier": "ui.terminal.notify",
    "LazyConsole": "ui.terminal.screen",
    "Notifier": "ui.terminal.notify",
    "cell_len": "ui.terminal.fitting",
    "fit": "ui.terminal.fitting",
    "styled": "ui.terminal.screen",
    "terminal_width": "ui.terminal.fitting",
}

__all__ = [
    "Focus",
    "HeadlessNotifier",
    "LazyConsole",
    "Notifier",
    "cell_len",
    "fit",
    "styled",
    "terminal_width",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
