"""The tools a session offers, decided in one place (`choose_tools`): what `--tools` names, else
a set that fits the model — the lean set for a local server or a small window (small models
choose better among fewer tools, and every schema costs prompt tokens), the full set otherwise —
less the tools that cannot help this session: `skill` without skills, `task` without
sub-agents worth starting, the web without a network, `clarify` with nobody to answer.

`recall` in the lean set joins when the first output is archived (before that it has nothing
to return). The full set keeps it from the start: a tool joining later would change the cached
prefix (tools come first) of every request after it, which a cloud provider bills again."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from core.agent.extensions.agent_defs import find_agents
from core.agent.extensions.skills import discover_skills
from core.agent.options import SessionOptions
from core.model import ResolvedProvider, price_mode
from my_agent.errors import ConfigError
from my_agent.home import read_user_config
from tools.claude_code import unicum_tools
from tools.registry import Registry
from tools.sandbox import SandboxPolicy

LOCAL_PROFILES = frozenset({"ollama", "openai-compatible"})
WEB_TOOLS = frozenset({"web_search", "web_read"})
LEAN = ("read_file", "edit_file", "write_file", "terminal", "search_files", "list_files")
SMALL_WINDOW = 32_768  # tokens: at or below it, the lean set
TOOL_SET_ENV = "UNICUM_TOOL_SET"
TOOL_SETS = ("auto", "lean", "full")


@dataclass(frozen=True)
class ToolAsk:
    """What the decision depends on, known before the session opens."""

    names: Sequence[str] | None  # --tools (None or empty: the set decides; ["all"]: every tool)
    provider: str  # the profile's name
    local: bool  # the server runs on this machine or network
    window: int  # the model's context window, in tokens
    interactive: bool  # someone answers `clarify`
    tool_set: str = "auto"  # config.json `tool_set` / $UNICUM_TOOL_SET: auto | lean | full
    network: bool = True  # the web is reachable (a cloud model; a local one is often offline)
    skills: bool = False  # the session has skills to load
    agents: bool = False  # sub-agents are defined (beyond the built-in general one)


@dataclass
class ToolChoice:
    registry: Registry  # offered from the first request (`later` tools join it when available)
    line: str  # the one line said at start
    set: str  # lean | full | asked


def tool_set_setting(config: dict) -> str:
    """$UNICUM_TOOL_SET, else `tool_set` in config.json, else auto."""
    raw = os.environ.get(TOOL_SET_ENV) or config.get("tool_set") or "auto"
    value = str(raw).strip().lower()
    if value not in TOOL_SETS:
        raise ConfigError(
            f"tool_set must be one of {', '.join(TOOL_SETS)} (got {raw!r}): fix "
            f"{TOOL_SET_ENV} or 'tool_set' in config.json"
        )
    return value


def _left_out(ask: ToolAsk, lean: bool) -> dict[str, bool]:
    """Tool name -> left out, for the tools that help only in some sessions."""
    return {
        "skill": not ask.skills,
        "task": lean and not ask.agents,  # a small model's sub-agents only multiply its loops
        "clarify": not ask.interactive or lean,
        "web_search": lean or not ask.network,
        "web_read": lean or not ask.network,
    }


def choose_tools(registry: Registry, ask: ToolAsk) -> ToolChoice:
    """The one decision: `--tools` wins; else the lean or the full set, less what cannot help."""
    # a local server's model gets the JSON schemas (its tool-call grammar may be built from them)
    registry = Registry(list(registry.tools.values()), brief=ask.provider not in LOCAL_PROFILES)
    # Unicum's names or Claude Code's (`--tools Bash,Read`); `default` is Claude Code's all
    wanted = [t for n in ask.names or () if n.strip() for t in unicum_tools(n.strip())]
    wanted = ["all"] if wanted == ["default"] else wanted
    if wanted:
        return _asked(registry, wanted)
    lean = ask.tool_set == "lean" or (
        ask.tool_set == "auto" and (ask.local or ask.window <= SMALL_WINDOW)
    )
    dropped = {name for name, out in _left_out(ask, lean).items() if out}
    keep = [
        t
        for name, t in registry.tools.items()
        if name not in dropped and (not lean or name in LEAN or name in {"skill", "task"})
    ]
    later = [registry.tools["recall"]] if lean and "recall" in registry.tools else []
    chosen = registry.only(keep)
    chosen.later = later
    names = ", ".join(sorted(chosen.tools))
    if lean:
        line = (
            f"tools: the lean set for a local server or a small window ({ask.window:,} "
            f"tokens): {names}; recall joins when an output is archived (tool_set in "
            "config.json or --tools changes it)"
        )
    else:
        line = f"tools: the full set: {names} (tool_set in config.json or --tools changes it)"
    return ToolChoice(chosen, line, "lean" if lean else "full")


def _asked(registry: Registry, wanted: list[str]) -> ToolChoice:
    if wanted == ["all"]:
        return ToolChoice(registry, f"tools: all, as --tools asks: {_names(registry)}", "asked")
    unknown = sorted(set(wanted) - set(registry.tools))
    if unknown:
        raise ConfigError(
            f"--tools: no tool named {', '.join(unknown)} "
            f"(choose from {', '.join(sorted(registry.tools))}, or all)"
        )
    chosen = registry.only([registry.tools[n] for n in dict.fromkeys(wanted)])
    return ToolChoice(chosen, f"tools: as --tools asks: {_names(chosen)}", "asked")


def _names(registry: Registry) -> str:
    return ", ".join(sorted(registry.tools))


def session_ask(
    opts: SessionOptions, provider: ResolvedProvider, workspace: Path, home: Path, trusted: bool
) -> ToolAsk:
    """What a session's tool choice depends on, from its options, provider and folders."""
    config = read_user_config()
    try:
        SandboxPolicy.from_settings(
            config, opts.sandbox, opts.sandbox_network
        )  # bad values: one line
    except ValueError as exc:
        raise ConfigError(str(exc)) from exc
    # a server on this machine or network (a loopback proxy billed as the provider is not)
    local = provider.profile.name in LOCAL_PROFILES or price_mode(provider) == "local"
    return ToolAsk(
        opts.tools,
        provider.profile.name,
        local,
        provider.profile.context_window,
        opts.interactive,
        tool_set_setting(config),
        network=not local and _network_asked(config, opts.sandbox_network) != "off",
        skills=bool(discover_skills(workspace, home, trusted=trusted)),
        agents=len(find_agents(workspace, home)) > 1,
    )


def _network_asked(config: dict, flag: str | None) -> str:
    """The network the user set for commands (--sandbox-network, else config.json's
    sandbox.network), "" when unset. The web tools are Unicum's own fetches, asked for one by
    one: they go only where the user turned the network off, or the model is local (often
    offline); the commands' default (off, asked per host) does not remove them."""
    saved = config.get("sandbox") if isinstance(config.get("sandbox"), dict) else {}
    network = saved.get("network")
    if isinstance(network, dict):  # Claude Code's shape: {allowedDomains, ..., mode}
        network = network.get("mode")
    return str(flag or network or "")
