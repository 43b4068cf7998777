"""`/config` (and `/settings`), as in Claude Code: without arguments, each setting with its value
and where it is kept; `/config key=value …` changes them (Claude Code's keys), at once and in
the user's own files; `/config --help` lists the keys and their values. A bad key or value is
one line and nothing is changed (all or none)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from my_agent.capped import CONFIG, read_capped_text
from my_agent.files import atomic_write
from tools.claude_code import CLAUDE_MODES, MODES
from ui.words import N_

ON_OFF_WORDS = ("off", "none", "")


def _read(path: Path) -> dict[str, Any]:
    """A JSON object file ({} when absent); ValueError when it is there but not one."""
    if not path.is_file():
        return {}
    try:
        data = json.loads(read_capped_text(path, CONFIG))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{path}: {getattr(exc, 'why', exc)}") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not a JSON object")
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    atomic_write(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())


# --- each setting: its values, how it reads now, how a change is applied and kept -------------
def _model_now(repl: Any) -> str:
    return repl.agent.client.model


def _model_set(repl: Any, value: str) -> None:
    """Now, and for the next sessions as config.json's `models.<provider>` (a model is never
    sent to another provider)."""
    from core.model import available_models, closest_model

    client = repl.agent.client
    models = available_models(client)
    if models is not None and value not in models:
        guess = closest_model(value, models)
        raise ValueError(
            f"{client.provider.profile.name} has no model '{value}'"
            + (f" (did you mean {guess}?)" if guess else "")
        )
    path = repl.home / "config.json"
    data = _read(path)
    models = data.get("models") if isinstance(data.get("models"), dict) else {}
    _write(path, {**data, "models": {**models, client.provider.profile.name: value}})
    client.set_model(value)
    repl.opts.model = value


def _mode_now(repl: Any) -> str:
    from ui.commands.plan import current_mode

    return CLAUDE_MODES.get(current_mode(repl), "default")


def _mode_set(repl: Any, value: str) -> None:
    from ui.commands.plan import apply_mode

    path = repl.home / "settings.json"
    data = _read(path)
    rules = data.get("permissions") if isinstance(data.get("permissions"), dict) else {}
    _write(path, {**data, "permissions": {**rules, "defaultMode": value}})
    mode = MODES[value]
    repl.plan = mode == "plan"
    repl.opts.permission_mode = "ask" if repl.plan else mode
    if repl.live is not None:
        apply_mode(repl)


def _editor_now(repl: Any) -> str:
    from ui.commands.vim import editor_mode

    return editor_mode(repl.home)


def _editor_set(repl: Any, value: str) -> None:
    from ui.commands.vim import apply_editor_mode, save_editor_mode

    _read(repl.home / "settings.json")  # a broken file is refused before anything changes
    save_editor_mode(repl.home, value)
    if repl.prompt_session is not None:
        apply_editor_mode(repl.prompt_session, value)


def _status_now(repl: Any) -> str:
    entry = _read(repl.home / "settings.json").get("statusLine")
    return str(entry.get("command") or "") if isinstance(entry, dict) else ""


def _status_set(repl: Any, value: str) -> None:
    path = repl.home / "settings.json"
    data = _read(path)
    if value.lower() in ON_OFF_WORDS:
        data.pop("statusLine", None)
    else:
        data["statusLine"] = {"type": "command", "command": value}
    _write(path, data)
    if repl.status_bar is not None:
        repl.status_bar.refresh()


def _language_now(repl: Any) -> str:
    return str(_read(repl.home / "settings.json").get("language") or repl.s.lang)


def _language_set(repl: Any, value: str) -> None:
    path = repl.home / "settings.json"
    _write(path, {**_read(path), "language": LANGUAGE_NAMES.get(value.lower(), value)})


LANGUAGE_NAMES = {"english": "en", "chinese": "zh"}


@dataclass(frozen=True)
class Setting:
    key: str
    choices: tuple[str, ...]  # () : any text
    where: str  # the file it is kept in
    help_key: str
    now: Callable[[Any], str]
    change: Callable[[Any, str], None]
    after: str = N_("{key} set to {value}")


SETTINGS: dict[str, Setting] = {
    s.key: s
    for s in (
        Setting("model", (), "config.json models", N_("the model, now and from now on"),
                _model_now, _model_set),
        Setting("defaultMode", tuple(CLAUDE_MODES.values()), "settings.json permissions",
                N_("the permission mode, now and for new sessions"), _mode_now, _mode_set),
        Setting("editorMode", ("normal", "vim"), "settings.json",
                N_("the input line's key bindings"), _editor_now, _editor_set),
        Setting("statusLine", (), "settings.json",
                N_("a command whose output is the status line (off: the built-in line)"),
                _status_now, _status_set),
        Setting("language", ("en", "zh", "english", "chinese"), "settings.json",
                N_("the language Unicum speaks (from the next start; --lang wins)"),
                _language_now, _language_set, N_("{key} set to {value}: from the next start")),
    )
}  # fmt: skip
ALIASES = {"permissions.defaultMode": "defaultMode", "vim": "editorMode"}
# Claude Code's other /config keys: said to be unsupported by name, not "unknown"
UNSUPPORTED = ("theme", "verbose", "outputStyle", "autoCompactEnabled", "thinking", "fastMode")


def cmd_config(repl: Any, arg: str) -> None:
    if arg.strip() in ("--help", "-h", "help"):
        for s in SETTINGS.values():
            values = " | ".join(s.choices) if s.choices else repl.s.t("any text")
            repl.say(f"  {s.key:<12} {values:<44} {repl.s.t(s.help_key)}")
        return
    if not arg.strip():
        for s in SETTINGS.values():
            repl.say(f"  {s.key:<12} {s.now(repl) or '-':<40} ({s.where})")
        repl.say(repl.s.t("change one with /config key=value (/config --help lists them)"))
        return
    try:
        changes = [_parsed(repl, pair) for pair in arg.split()] if "=" in arg else None
    except ValueError as exc:
        repl.say(str(exc), style="yellow")
        return
    if changes is None:
        repl.say(repl.s.t("write /config key=value (/config --help lists the keys)"), "yellow")
        return
    for setting, value in changes:
        try:
            setting.change(repl, value)
        except (OSError, ValueError) as exc:
            repl.say(repl.s.t("{key} not changed: {detail}", key=setting.key, detail=exc), "yellow")
            return
        repl.say(repl.s.t(setting.after, key=setting.key, value=value or "off"))


def _parsed(repl: Any, pair: str) -> tuple[Setting, str]:
    """One `key=value`, checked (ValueError: the one line to show)."""
    key, eq, value = pair.partition("=")
    key = ALIASES.get(key, key)
    if key in UNSUPPORTED:
        raise ValueError(repl.s.t("{key}: Claude Code's setting, not supported here", key=key))
    setting = SETTINGS.get(key)
    if setting is None or not eq:
        raise ValueError(
            repl.s.t("unknown setting {key}: the keys are {keys}", key=key,
                     keys=", ".join(SETTINGS))
        )  # fmt: skip
    if setting.choices and value not in setting.choices:
        raise ValueError(
            repl.s.t("{key} cannot be {value}: one of {choices}", key=key, value=value or '""',
                     choices=", ".join(setting.choices))
        )  # fmt: skip
    if not setting.choices and not value and key == "model":
        raise ValueError(repl.s.t("{key} needs a value", key=key))
    return setting, value
