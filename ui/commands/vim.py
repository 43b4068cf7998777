"""`/vim`: the input line's vi key bindings on or off (prompt_toolkit's vi mode), remembered in
the user's settings as `"editor_mode": "vim"` (Claude Code's `editorMode` is read too)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from my_agent.capped import CONFIG, read_capped_text
from my_agent.files import atomic_write

if TYPE_CHECKING:
    from ui.words import Strings

MODES = ("normal", "vim")


class Repl(Protocol):
    s: Strings
    home: Path
    prompt_session: Any  # the input line's PromptSession (None before the loop starts)

    def say(self, line: str, style: str = "") -> None: ...


def _settings(home: Path) -> dict[str, Any]:
    try:
        data = json.loads(read_capped_text(home / "settings.json", CONFIG))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def editor_mode(home: Path) -> str:
    """ "vim" or "normal", from the user's settings (anything else: normal)."""
    data = _settings(home)
    mode = data.get("editorMode", data.get("editor_mode", "normal"))
    return "vim" if mode == "vim" else "normal"


def save_editor_mode(home: Path, mode: str) -> None:
    """The mode in the user's settings, every other setting kept (an unreadable file is left)."""
    path = home / "settings.json"
    if path.is_file() and not _settings(home):
        raise OSError(f"{path} is not a JSON object; editor mode not saved")
    data = {**_settings(home), "editorMode": mode}  # Claude Code's key
    data.pop("editor_mode", None)
    atomic_write(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())


def apply_editor_mode(session: Any, mode: str) -> None:
    from prompt_toolkit.enums import EditingMode

    session.editing_mode = EditingMode.VI if mode == "vim" else EditingMode.EMACS


def cmd_vim(repl: Repl, arg: str) -> None:
    """`/vim`: toggle; `/vim on|off`."""
    current = editor_mode(repl.home)
    wanted = {"on": "vim", "off": "normal"}.get(arg, "normal" if current == "vim" else "vim")
    if repl.prompt_session is not None:
        apply_editor_mode(repl.prompt_session, wanted)
    line = (
        repl.s.t("vim mode on: Esc for normal mode, i to insert")
        if wanted == "vim"
        else repl.s.t("vim mode off")
    )
    try:
        save_editor_mode(repl.home, wanted)
    except OSError as exc:
        repl.say(line)
        repl.say(repl.s.t("not saved: {detail}", detail=exc), style="yellow")
        return
    repl.say(line + repl.s.t(" (saved in settings.json)"))
