"""The tools a session offers: all of them, the ones `--tools` names, or for a local server
(ollama, openai-compatible) the ones the session can use: small models choose better among
fewer tools, and every schema costs prompt tokens on a small window."""

from __future__ import annotations

from collections.abc import Sequence

from my_agent.errors import ConfigError
from tools.claude_code import unicum_tools
from tools.registry import Registry

LOCAL_PROFILES = frozenset({"ollama", "openai-compatible"})
WEB_TOOLS = frozenset({"web_search", "web_read"})  # a local model is often run offline


def left_out(provider: str, interactive: bool) -> set[str]:
    """What a local server's default tool set leaves out: the web, and `clarify` in `-p`
    (nobody is there to answer)."""
    if provider not in LOCAL_PROFILES:
        return set()
    return set(WEB_TOOLS) | (set() if interactive else {"clarify"})


def choose_tools(
    registry: Registry, names: Sequence[str] | None, provider: str, interactive: bool
) -> Registry:
    """`names` (from `--tools`, Unicum's or Claude Code's names: `Bash,Read`; "all" for every
    tool), else the provider's default set."""
    wanted = [t for n in names or () if n.strip() for t in unicum_tools(n.strip())]
    # a local server's model gets the JSON schemas (its tool-call grammar may be built from them)
    registry = Registry(list(registry.tools.values()), brief=provider not in LOCAL_PROFILES)
    if wanted in (["all"], ["default"]):  # `default`: Claude Code's word for every tool
        return registry
    if wanted:
        unknown = sorted(set(wanted) - set(registry.tools))
        if unknown:
            raise ConfigError(
                f"--tools: no tool named {', '.join(unknown)} "
                f"(choose from {', '.join(sorted(registry.tools))}, or all)"
            )
        return registry.only([registry.tools[n] for n in dict.fromkeys(wanted)])
    dropped = left_out(provider, interactive)
    return registry.only([t for name, t in registry.tools.items() if name not in dropped])
