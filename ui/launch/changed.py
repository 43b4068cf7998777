"""Start-up in a trusted folder whose extension files (`.mcp.json`, `.unicum/`, `.claude/`,
`.agents/`, `.codex/`) changed since the user trusted it: they are named, and loaded only
when the user confirms (the REPL's y/n; `-p` leaves them unloaded and says so)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

from my_agent.command_made import confirm
from my_agent.home import unicum_home
from my_agent.trust import changed_extensions, trust_folder
from ui.words import Strings

SHOWN = 6


def confirm_changed_extensions(
    folder: Path, strings: Strings, read_key: Callable[[str], str] | None
) -> None:
    """Ask with `read_key` (None: nobody to ask, warn) about changed extension files; `y`
    records them as they are now."""
    changed = changed_extensions(folder)
    if not changed:
        return
    files = ", ".join(changed[:SHOWN]) + (
        f" (+{len(changed) - SHOWN})" if len(changed) > SHOWN else ""
    )
    if read_key is not None:
        question = strings.t(
            "{files} changed since you trusted {folder}; they can run hooks, MCP servers and "
            "commands. Load them? [y/n] ",
            files=files,
            folder=folder,
        )
        if read_key(question) == "y":
            try:
                trust_folder(folder)
                return
            except OSError as exc:
                print(
                    strings.t("cannot remember the trust: {detail}", detail=exc.strerror or exc),
                    file=sys.stderr,
                )
                return
    print(
        "unicum: "
        + strings.t(
            "{files} changed since you trusted {folder}: the project's hooks, MCP servers, "
            "commands, skills and agents are not loaded (start unicum there to review them)",
            files=files,
            folder=folder,
        ),
        file=sys.stderr,
    )


def confirm_command_made(
    folder: Path, strings: Strings, read_key: Callable[[str], str] | None
) -> None:
    """Instruction files a command created (my_agent/command_made.py): asked with `read_key`
    (`y` loads them from now on), else named as not loaded."""
    from core.agent import held_instruction_files

    home = unicum_home()
    held = held_instruction_files(folder, home)
    if not held:
        return
    files = ", ".join(_shown(p, folder) for p in held)
    if read_key is not None:
        question = strings.t(
            "{files} was written by a command, not by you; it would be read as instructions. "
            "Load it? [y/n] ",
            files=files,
        )
        if read_key(question) == "y":
            try:
                confirm(home, held)
                return
            except OSError as exc:
                detail = exc.strerror or exc
                print(
                    strings.t("cannot remember the answer: {detail}", detail=detail),
                    file=sys.stderr,
                )
                return
    print(
        "unicum: "
        + strings.t(
            "{files} was written by a command, not by you: not read as instructions (start "
            "unicum there to review it)",
            files=files,
        ),
        file=sys.stderr,
    )


def _shown(path: Path, folder: Path) -> str:
    try:
        return str(path.relative_to(folder))
    except ValueError:
        return str(path)
