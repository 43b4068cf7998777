"""Custom slash commands and skills typed as `/name` in the REPL: run, listed, completed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.agent import CustomCommand, discover_commands

if TYPE_CHECKING:
    from ui.commands.api import ReplApi


def custom_commands(repl: ReplApi, warnings: list[str] | None = None) -> dict[str, CustomCommand]:
    """Found afresh each time, so a command file added mid-session is there at once."""
    return discover_commands(repl.opts.workspace.expanduser().resolve(), repl.home, warnings)


def help_rows(repl: ReplApi, taken: set[str]) -> list[tuple[str, str]]:
    rows = []
    for name, command in custom_commands(repl).items():
        if name not in taken:
            kind = repl.s.t("skill") if command.skill else repl.s.t("custom command")
            usage = f"{name} {command.argument_hint}".strip()
            rows.append((usage, f"{command.description} ({kind})".strip()))
    return rows


def run_custom(repl: ReplApi, name: str, arguments: str) -> bool:
    """Run `/name` as a task if it is a custom command or a skill; False if there is none."""
    warnings: list[str] = []
    found = custom_commands(repl, warnings)
    command = found.get(name) or found.get(name.lower())
    for warning in warnings:
        repl.say(repl.s.t("warning: {detail}", detail=warning), style="yellow")
    if command is None:
        return False
    repl.say(repl.s.t("{name} ({path})", name=command.name, path=command.path), style="dim")
    repl.command_tools.allowed = command.allowed_tools
    try:
        prompt = repl.expand_command(command.prompt(arguments))
        repl.run_task(prompt, f"/{name} {arguments}".strip())
    finally:
        repl.command_tools.allowed = ()
    return True
