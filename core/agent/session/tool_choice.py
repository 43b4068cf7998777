"""What `--allowed-tools`, `--disallowed-tools` and `--append-system-prompt` change in a session."""

from __future__ import annotations

import difflib

from core.agent.prompts.system import PromptSection
from my_agent.errors import ConfigError
from tools.registry import Registry


def _check(names: tuple[str, ...], known: list[str], flag: str) -> None:
    for name in names:
        if name not in known:
            close = difflib.get_close_matches(name, known, n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise ConfigError(
                f"{flag}: unknown tool '{name}'{hint}; the tools are {', '.join(known)}"
            )


def chosen_tools(
    registry: Registry, allowed: tuple[str, ...], disallowed: tuple[str, ...]
) -> Registry:
    """The registry with only the `allowed` tools (all when empty), less the `disallowed`."""
    if not allowed and not disallowed:
        return registry
    known = sorted({*registry.tools, *(t.name for t in registry.later)})
    _check(allowed, known, "--allowed-tools")
    _check(disallowed, known, "--disallowed-tools")

    def wanted(name: str) -> bool:
        return (not allowed or name in allowed) and name not in disallowed

    chosen = registry.only([tool for name, tool in registry.tools.items() if wanted(name)])
    chosen.later = [tool for tool in registry.later if wanted(tool.name)]
    return chosen


def appended_section(text: str) -> list[PromptSection]:
    """`--append-system-prompt` as a prompt section (none when empty)."""
    return [PromptSection("appended", text.strip())] if text.strip() else []
