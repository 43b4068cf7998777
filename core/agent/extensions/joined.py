"""What joins a session from outside: plugin tools and rules, and MCP servers' tools. The tool
list is fixed at the session's first request (provider prompt caches keep hitting): plugins
are waited for then, and MCP servers still starting are waited for until their start-up
deadline; a server that comes up later brings its tools to the next session (`/new`). A server
that dies keeps its tools listed, each unavailable with the server's reason."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from core.agent.events import AgentHooks
from core.agent.extensions.plugins import MemoryRule, PluginLoader, Plugins
from core.agent.extensions.settings import read_settings
from core.facts import Rule
from core.mcp import (
    START_DELAY,
    McpHub,
    ServerConfig,
    answered,
    hub_tools,
    load_servers,
    remember,
    said,
    server_prefix,
    unasked,
)
from my_agent.trust import opted_in
from tools.base import ToolContext
from tools.registry import Registry

JOINS = "joins at the first request"
LATE = "up after the tool list was fixed: /new brings its tools"


def _no_report(what: str, seconds: float, names: tuple[str, ...] = ()) -> None:
    return None


@dataclass
class Extensions(AgentHooks):
    registry: Registry
    fact_rules: dict[str, Rule]  # the session's own table (the built-in rows and the plugins')
    plugins: PluginLoader
    mcp: McpHub
    frozen: bool = False
    report: Callable[..., None] = _no_report  # the session's `on_wait`: what freezing waited for

    def before_request(self, turn: int) -> None:
        self.freeze()

    def freeze(self) -> None:
        """Fix the tool list once: plugins' tools and rules, then the MCP servers' tools."""
        if self.frozen:
            return
        self.frozen = True
        started = time.monotonic()
        found = self.plugins.get()
        self.report("plugins", time.monotonic() - started)
        self.registry.extend(found.tools)
        for name, rule in found.fact_rules.items():
            self.fact_rules.setdefault(name, rule)
        started = time.monotonic()
        waited = self.mcp.settle()
        if waited:
            self.report("mcp", time.monotonic() - started, tuple(waited))
        self.registry.extend(hub_tools(self.mcp))

    def memory_rules(self) -> list[MemoryRule]:
        return self.plugins.get().memory_rules

    def found(self) -> Plugins:
        return self.plugins.get()

    def pending(self, ctx: ToolContext) -> list[tuple[str, str | None]]:
        """Rows for `/tools` beyond the registry: tools not joined yet, servers without tools."""
        rows: list[tuple[str, str | None]] = []
        if not self.frozen:
            rows += [(t.name, JOINS) for t in self.plugins.get().tools]
            rows += [(t.name, JOINS) for t in hub_tools(self.mcp)]
        for name in sorted(self.mcp.servers):
            if any(n.startswith(server_prefix(name)) for n in self.registry.tools):
                continue
            reason = self.mcp.unavailable(name)
            if reason is None:
                reason = LATE if self.frozen else JOINS
            if reason != JOINS or not hub_tools(self.mcp):
                rows.append((server_prefix(name) + "*", reason))
        return rows

    def close(self) -> None:
        self.mcp.close()


def open_extensions(
    workspace: Path,
    home: Path,
    registry: Registry,
    fact_rules: dict[str, Rule],
    warn: Callable[[str], None],
    plugins: PluginLoader | None = None,
    interactive: bool = True,
    mcp_configs: tuple[str, ...] = (),
    strict_mcp: bool = False,
) -> Extensions:
    """Start loading plugins and starting MCP servers in the background; returns at once.
    Without a prompt to draw first (`-p`), the servers start at once. `mcp_configs`,
    `strict_mcp`: `--mcp-config` and `--strict-mcp-config`."""
    settings = [f.data for f in read_settings(workspace, home, warn)]
    kept = ProjectServers(workspace, home, settings, ask_nobody=not interactive)
    servers = load_servers(workspace, home, warn, mcp_configs, strict_mcp, kept.keep)
    if kept.skipped:
        warn(
            "project MCP servers not started, never approved for this project: "
            f"{', '.join(kept.skipped)} (approve them once in the REPL, list them in "
            "enabledMcpjsonServers or set enableAllProjectMcpServers in settings, or run "
            "with --trust-project)"
        )
    hub = McpHub(servers, workspace, home / "logs", warn)
    hub.start(delay=START_DELAY if interactive else 0.0)
    loader = plugins or PluginLoader(warn)
    return Extensions(registry, fact_rules, loader, hub)


@dataclass
class ProjectServers:
    """Which of a project's `.mcp.json` servers may start: approved by the settings
    (`enableAllProjectMcpServers`, `enabledMcpjsonServers`; `disabledMcpjsonServers` wins) or
    answered yes once. Never asked (the REPL asks first): `-p` has nobody to ask, so such a
    server starts only when the run opted in (`--trust-project`); `skipped` names the rest."""

    workspace: Path
    home: Path
    settings: list[dict]
    ask_nobody: bool = False
    skipped: list[str] = field(default_factory=list)

    def keep(self, server: ServerConfig) -> bool:
        if server.source != "project":
            return True
        verdict = said(server, self.settings)
        if verdict is None:
            verdict = answered(server, self.workspace, self.home)
        if verdict is None and self.ask_nobody and not opted_in():
            self.skipped.append(server.name)
            return False
        return verdict is not False


def servers_to_ask(workspace: Path, home: Path) -> list[ServerConfig]:
    """The project's servers to ask about before they first start (the REPL asks)."""
    return unasked(workspace, home, [f.data for f in read_settings(workspace, home, lambda _: 0)])


def remember_server(server: ServerConfig, start: bool, workspace: Path, home: Path) -> None:
    remember(server, start, workspace, home)
