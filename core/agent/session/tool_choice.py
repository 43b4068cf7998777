"""What `--allowedTools`, `--disallowedTools` and `--append-system-prompt` change in a session.

As in Claude Code: `--allowedTools` rules run without asking (they never narrow the tools
offered; `--tools` does that), `--disallowedTools` names are taken out of the tools offered and
its rules (`Bash(rm:*)`, `mcp__srv`) deny the calls they cover."""

from __future__ import annotations

import difflib

from core.agent.extensions.rules import RuleSet
from core.agent.prompts.system import PromptSection
from my_agent.errors import ConfigError
from tools.claude_code import KINDS, MULTI_EDIT, TABLE, unicum_tools
from tools.claude_rules import parse_rule
from tools.registry import Registry


def _known(registry: Registry) -> list[str]:
    claude = {row.name for row in TABLE.values()} | {a for r in TABLE.values() for a in r.aliases}
    later = {t.name for t in registry.later}
    return sorted({*registry.tools, *later, *TABLE, *claude, *KINDS, MULTI_EDIT})


def check_rules(rules: tuple[str, ...], registry: Registry, flag: str) -> None:
    """A rule naming no tool (a typo) is an error that names the tools; MCP names pass (their
    tools join later)."""
    known = _known(registry)
    for text in rules:
        rule = parse_rule(text)
        if rule is None:
            raise ConfigError(f"{flag}: {text!r} is not a tool name or rule")
        if rule.tool.startswith("mcp__") or rule.tool in known:
            continue
        close = difflib.get_close_matches(rule.tool, known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise ConfigError(
            f"{flag}: unknown tool '{rule.tool}'{hint}; the tools are {', '.join(known)}"
        )


def chosen_tools(registry: Registry, disallowed: tuple[str, ...]) -> Registry:
    """The registry less the tools `--disallowedTools` names whole (`Bash`, `write_file`)."""
    if not disallowed:
        return registry
    check_rules(disallowed, registry, "--disallowedTools")
    gone: set[str] = set()
    for text in disallowed:
        rule = parse_rule(text)
        if rule is None or rule.spec is not None or rule.tool.startswith("mcp__"):
            continue
        if rule.tool != MULTI_EDIT:  # a mode of edit_file, not a tool: its deny rule holds it
            gone |= {*unicum_tools(rule.tool), *KINDS.get(rule.tool, ())}
    chosen = registry.only([t for name, t in registry.tools.items() if name not in gone])
    chosen.later = [tool for tool in registry.later if tool.name not in gone]
    return chosen


def flag_rules(
    rules: RuleSet, allowed: tuple[str, ...], disallowed: tuple[str, ...], registry: Registry
) -> RuleSet:
    """The flags' rules joined to the settings' ones (a flag's deny wins like any deny)."""
    check_rules(allowed, registry, "--allowedTools")
    rules.add("allow", allowed, "--allowedTools", lambda _: None)
    rules.add("deny", disallowed, "--disallowedTools", lambda _: None)
    return rules


def appended_section(text: str) -> list[PromptSection]:
    """`--append-system-prompt` as a prompt section (none when empty)."""
    return [PromptSection("appended", text.strip())] if text.strip() else []
