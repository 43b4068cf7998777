"""`unicum codemap|mcp|memory|plugins|serve|usage`: the subcommands, each a module with `main`.

The table below is the one list of them (cli.py dispatches through `run`); a subcommand's module
loads only when it runs (`serve` alone imports uvicorn and FastAPI)."""

from __future__ import annotations

import importlib

from my_agent.lazy import TYPE_CHECKING, lazy_face

if TYPE_CHECKING:  # the same names for type checkers and the import-graph test
    from ui.subcommands.memory import main as memory_main
    from ui.subcommands.usage import money, report_text, session_ledger, session_totals, task_label

NAMES = ("codemap", "mcp", "memory", "plugins", "serve", "usage")

_WHERE = {
    "memory_main": "ui.subcommands.memory:main",
    "money": "ui.subcommands.usage",
    "report_text": "ui.subcommands.usage",
    "session_ledger": "ui.subcommands.usage",
    "session_totals": "ui.subcommands.usage",
    "task_label": "ui.subcommands.usage",
}

__all__ = [
    "NAMES",
    "memory_main",
    "money",
    "report_text",
    "run",
    "session_ledger",
    "session_totals",
    "task_label",
]
__getattr__, __dir__ = lazy_face(__name__, _WHERE)


def run(name: str, argv: list[str]) -> int:
    """Run subcommand `name` (one of NAMES) with its own arguments."""
    return importlib.import_module(f"{__name__}.{name}").main(argv)
