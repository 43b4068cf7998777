"""Plugins: Python entry points in the groups below, found with importlib.metadata when a
session first needs them (scanning the installed packages takes a tenth of a second) and
collected into one `Plugins` value the session hands out; a broken plugin is one warning.

- `unicum.tools`: a `Tool`, a list of them, or a function returning either;
- `unicum.providers`: a `ProviderProfile`, a list, or a function returning either;
- `unicum.fact_rules`: a rule `(ToolCall, ToolOutput) -> Fact` for the tool named like the entry
  point, or a dict tool name -> rule;
- `unicum.memory_rules`: a function `(Fact) -> list[MemoryEntry]`, extra memory from a fact.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from core.facts import Rule
from core.memory import MemoryEntry
from core.model import ProviderProfile
from my_agent.facts import Fact
from tools.base import Tool

GROUPS = ("unicum.tools", "unicum.providers", "unicum.fact_rules", "unicum.memory_rules")
MemoryRule = Callable[[Fact], "list[MemoryEntry]"]


@dataclass(frozen=True)
class PluginInfo:
    group: str
    name: str
    package: str  # the distribution that declares it
    provides: str  # what it gave: tool names, provider names, ...
    error: str = ""


@dataclass
class Plugins:
    tools: list[Tool] = field(default_factory=list)
    providers: dict[str, ProviderProfile] = field(default_factory=dict)
    fact_rules: dict[str, Rule] = field(default_factory=dict)
    memory_rules: list[MemoryRule] = field(default_factory=list)
    found: list[PluginInfo] = field(default_factory=list)


def _items(value: Any, kind: type) -> list[Any]:
    value = value() if callable(value) and not isinstance(value, kind) else value
    items = list(value) if isinstance(value, list | tuple) else [value]
    wrong = [type(v).__name__ for v in items if not isinstance(v, kind)]
    if wrong:
        raise TypeError(f"expected {kind.__name__}, got {', '.join(wrong)}")
    return items


def _take(plugins: Plugins, group: str, ep: EntryPoint, value: Any) -> str:
    """File one entry point's value; returns what it provided (TypeError: a wrong shape)."""
    if group == "unicum.tools":
        tools = _items(value, Tool)
        plugins.tools += tools
        return ", ".join(t.name for t in tools)
    if group == "unicum.providers":
        profiles = _items(value, ProviderProfile)
        plugins.providers.update({p.name: p for p in profiles})
        return ", ".join(p.name for p in profiles)
    if group == "unicum.fact_rules":
        rules = value if isinstance(value, dict) else {ep.name: value}
        if not all(callable(r) for r in rules.values()):
            raise TypeError("a fact rule must be callable")
        plugins.fact_rules.update(rules)
        return ", ".join(rules)
    if not callable(value):
        raise TypeError("a memory rule must be callable")
    plugins.memory_rules.append(value)
    return ep.name


def _discovered(groups: Iterable[str]) -> list[tuple[str, EntryPoint]]:
    every = entry_points()
    return [(g, ep) for g in groups for ep in sorted(every.select(group=g), key=lambda e: e.name)]


def load_plugins(warn: Callable[[str], None], groups: Iterable[str] = GROUPS) -> Plugins:
    """Every plugin of the installed packages; one that fails to load is one warning."""
    plugins = Plugins()
    for group, ep in _discovered(groups):
        package = ep.dist.name if ep.dist is not None else "?"
        try:
            provides = _take(plugins, group, ep, ep.load())
        except Exception as exc:  # a plugin's bug must not stop the session
            error = f"{type(exc).__name__}: {exc}"
            warn(f"plugin {ep.name} ({group}, from {package}) not loaded: {error}")
            plugins.found.append(PluginInfo(group, ep.name, package, "", error))
            continue
        plugins.found.append(PluginInfo(group, ep.name, package, provides))
    return plugins


class PluginLoader:
    """Loads the plugins when first asked (the session's first request, `/tools`, or a provider
    name that is not built in), never before the prompt: scanning the installed packages'
    metadata takes a tenth of a second."""

    def __init__(self, warn: Callable[[str], None]) -> None:
        self._warn = warn
        self._lock = threading.Lock()
        self._plugins: Plugins | None = None

    def get(self) -> Plugins:
        with self._lock:
            if self._plugins is None:
                try:
                    self._plugins = load_plugins(self._warn)
                except Exception as exc:  # broken metadata of some installed package
                    self._warn(f"plugins not loaded: {type(exc).__name__}: {exc}")
                    self._plugins = Plugins()
            return self._plugins
