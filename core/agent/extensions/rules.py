"""Permission rules from the settings files (`permissions.allow` / `ask` / `deny`,
`defaultMode`) and the `--allowedTools` / `--disallowedTools` flags, in Claude Code's syntax
(`tools/claude_rules.py`).

A deny rule wins over every allow and ask, wherever each was written, in every mode (yolo
too); an ask rule asks even where nothing would; an allow rule runs the call without asking.
Project files load only in a trusted folder (`settings.py`), and their `defaultMode` may not be
`bypassPermissions`: only the user's own file or a flag turns every question off."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from core.agent.events import AgentHooks, ToolVerdict
from core.agent.extensions.settings import read_settings
from my_agent.messages import ToolCall
from tools.claude_code import MODES
from tools.claude_rules import ToolRule, allowing, covers, parse_rule

KINDS = ("deny", "ask", "allow")  # the order they are tried in
SOURCE = "a permission rule"


@dataclass
class RuleSet:
    rules: dict[str, list[ToolRule]] = field(default_factory=lambda: {k: [] for k in KINDS})
    default_mode: str | None = None  # Unicum's name for the settings' defaultMode
    additional_dirs: list[Path] = field(default_factory=list)  # like --add-dir

    def add(self, kind: str, texts: Sequence[str], origin: str, warn: Callable[[str], None]):
        for text in texts:
            rule = parse_rule(str(text), origin) if isinstance(text, str) else None
            if rule is None:
                warn(f"{origin}: permission rule {text!r} skipped: not a rule")
            else:
                self.rules[kind].append(rule)

    def __bool__(self) -> bool:
        return any(self.rules.values())


def load_rules(workspace: Path, home: Path, warn: Callable[[str], None]) -> RuleSet:
    """The rules of every settings file the folder may load, and the user's defaultMode (a
    project's where the user's file says none)."""
    found = RuleSet()
    for file in read_settings(workspace, home, warn):
        block = file.data.get("permissions")
        if not isinstance(block, dict):
            continue
        for kind in KINDS:
            entries = block.get(kind) or []
            if isinstance(entries, list):
                found.add(kind, entries, str(file.path), warn)
        extra = block.get("additionalDirectories") or []
        if isinstance(extra, list):
            found.additional_dirs += [workspace / Path(str(d)).expanduser() for d in extra]
        mode = MODES.get(str(block.get("defaultMode")), block.get("defaultMode"))
        if mode is None or mode not in MODES.values():
            continue
        if file.scope == "project" and mode == "yolo":
            warn(f"{file.path}: defaultMode bypassPermissions is taken only from your own settings")
        elif found.default_mode is None or file.scope == "user":
            found.default_mode = mode
    return found


class PermissionRules(AgentHooks):
    """Each call checked against the rules before it runs: deny, then ask, then allow."""

    def __init__(self, rules: RuleSet, workspace: Path) -> None:
        self.rules = rules
        self.workspace = workspace

    def check_tool(self, call: ToolCall) -> ToolVerdict | None:
        for kind in ("deny", "ask"):
            for rule in self.rules.rules[kind]:
                if covers(rule, call.name, call.arguments, self.workspace, every=False):
                    return _verdict(kind, rule)
        allowed = allowing(self.rules.rules["allow"], call.name, call.arguments, self.workspace)
        return _verdict("allow", allowed) if allowed else None


def _verdict(kind: str, rule: ToolRule) -> ToolVerdict:
    where = f"{rule.text} ({rule.origin})" if rule.origin else rule.text
    decision = {"deny": "block", "ask": "ask", "allow": "approve"}[kind]
    return ToolVerdict(decision, where, source=SOURCE)


def settings_default_mode(workspace: Path) -> str | None:
    """The settings' `defaultMode` for `workspace` (Unicum's name), or None."""
    from my_agent.home import unicum_home

    try:
        folder = workspace.expanduser().resolve()
    except OSError:
        return None
    return load_rules(folder, unicum_home(), lambda _: None).default_mode


def rules_file(workspace: Path, home: Path, scope: str) -> Path:
    """Where `/permissions` writes: your settings.json, or the project's settings.local.json
    (Claude Code's file for rules of yours in one project)."""
    if scope == "project":
        from core.agent.prompts.instructions import project_root

        return project_root(workspace) / ".claude" / "settings.local.json"
    return home / "settings.json"


def change_rule(path: Path, kind: str, text: str, add: bool) -> bool:
    """Add `text` to (or take it out of) `permissions.<kind>` in the settings file `path`,
    every other key kept; False when nothing changed. ValueError: not a rule, or the file is
    not a JSON object."""
    import json

    from my_agent.files import atomic_write

    if kind not in KINDS or parse_rule(text) is None:
        raise ValueError(f"not a permission rule: {text!r} ({'/'.join(KINDS)} RULE)")
    from my_agent.capped import CONFIG, read_capped_text

    data = json.loads(read_capped_text(path, CONFIG)) if path.is_file() else {}
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not a JSON object")
    block = data.setdefault("permissions", {})
    entries = block.setdefault(kind, [])
    if add == (text in entries):
        return False
    block[kind] = [*entries, text] if add else [e for e in entries if e != text]
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode())
    return True
