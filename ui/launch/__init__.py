"""Start-up shared by the REPL and `-p`: trust, options, piped stdin, saved sessions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from my_agent.lazy import lazy_face

if TYPE_CHECKING:  # the same names for type checkers and the import-graph test
    from ui.launch.hangup import end_cleanly_on_hangup
    from ui.launch.options import options_from_args
    from ui.launch.sessions import goodbye, print_sessions
    from ui.launch.stdin import is_piped
    from ui.launch.trust import prepare_folder

_WHERE = {
    "end_cleanly_on_hangup": "ui.launch.hangup",
    "goodbye": "ui.launch.sessions",
    "is_piped": "ui.launch.stdin",
    "options_from_args": "ui.launch.options",
    "prepare_folder": "ui.launch.trust",
    "print_sessions": "ui.launch.sessions",
}

__all__ = [
    "end_cleanly_on_hangup",
    "goodbye",
    "is_piped",
    "options_from_args",
    "prepare_folder",
    "print_sessions",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
