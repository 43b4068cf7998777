"""The REPL's slash commands: one module per command family behind one registry."""

from __future__ import annotations

from typing import TYPE_CHECKING

from my_agent.lazy import lazy_face

if TYPE_CHECKING:  # the same names for type checkers and the import-graph test
    from ui.commands.api import ReplApi
    from ui.commands.custom import custom_commands
    from ui.commands.plan import (
        apply_mode,
        current_mode,
        cycle_mode,
        prompt_text,
        run_task,
        toggle,
    )
    from ui.commands.registry import COMMANDS, dispatch
    from ui.commands.vim import apply_editor_mode, editor_mode

_WHERE = {
    "COMMANDS": "ui.commands.registry",
    "ReplApi": "ui.commands.api",
    "apply_editor_mode": "ui.commands.vim",
    "apply_mode": "ui.commands.plan",
    "cycle_mode": "ui.commands.plan",
    "current_mode": "ui.commands.plan",
    "custom_commands": "ui.commands.custom",
    "dispatch": "ui.commands.registry",
    "editor_mode": "ui.commands.vim",
    "prompt_text": "ui.commands.plan",
    "run_task": "ui.commands.plan",
    "toggle": "ui.commands.plan",
}

__all__ = [
    "COMMANDS",
    "ReplApi",
    "apply_editor_mode",
    "apply_mode",
    "cycle_mode",
    "current_mode",
    "custom_commands",
    "dispatch",
    "editor_mode",
    "prompt_text",
    "run_task",
    "toggle",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)
