"""/doctor: what this Unicum runs with, each line with what to do when it is not right: the
model and its key, the sandbox (bwrap), ripgrep, MCP servers, the folder's trust, hooks and
rules, and the versions."""

from __future__ import annotations

import shutil
import sys
from importlib import metadata
from typing import Any

from rich.text import Text

from core.agent import skipped_by_trust

Repl = Any  # the REPL as commands see it (ui.commands.registry.Repl)


def _row(repl: Repl, ok: bool, what: str, state: str, fix: str = "") -> None:
    line = Text("  ")
    line.append("✓ " if ok else "✗ ", style="green" if ok else "red")
    line.append(f"{what}: ", style="bold")
    line.append(state)
    if fix and not ok:
        line.append(f" — {fix}", style="yellow")
    repl.console.print(line)


def _version(package: str) -> str:
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return "-"


def cmd_doctor(repl: Repl, arg: str) -> None:
    s, agent = repl.s, repl.agent
    provider = agent.client.provider
    key_var = provider.profile.key_var
    _row(repl, True, s.t("model"), f"{agent.client.model} ({provider.profile.name})")
    if key_var:
        _row(repl, True, s.t("API key"), s.t("from {var}", var=key_var))
    sandbox = agent.tool_context.services.sandbox
    state = sandbox.describe() if sandbox is not None else "-"
    bad = sandbox is None or bool(getattr(sandbox, "problem", ""))
    _row(
        repl,
        not bad,
        s.t("sandbox"),
        state,
        s.t("install bubblewrap (apt install bubblewrap), or --sandbox off"),
    )
    bwrap = shutil.which("bwrap")
    _row(repl, bool(bwrap), "bwrap", bwrap or s.t("not found"), s.t("apt install bubblewrap"))
    rg = shutil.which("rg")
    _row(
        repl,
        bool(rg),
        "ripgrep",
        rg or s.t("not found"),
        s.t("apt install ripgrep (faster search)"),
    )
    hub = repl.session.extensions.mcp
    hub.settle()  # a diagnosis waits for servers still starting (up to their deadline)
    for name, server in sorted(hub.servers.items()):
        fix = s.t(
            "see {log}; a slow first start: UNICUM_MCP_TIMEOUT=60",
            log=repl.home / "logs" / f"mcp-{name}.log",
        )
        state = f"{server.status}" + (f": {server.reason}" if server.reason else "")
        _row(repl, server.status == "ready", f"MCP {name}", state, fix)
    skipped = skipped_by_trust(agent.tool_context.workspace)
    trusted = (
        s.t("trusted")
        if not skipped
        else s.t("not trusted: {what} not loaded", what=", ".join(s.t(w) for w in skipped))
    )
    _row(repl, not skipped, s.t("this folder"), trusted, s.t("/trust"))
    hooks = repl.session.user_hooks.hooks if repl.session.user_hooks else []
    rules = repl.session.rules
    count = sum(len(v) for v in rules.rules.values()) if rules else 0
    _row(
        repl,
        True,
        s.t("hooks and permission rules"),
        f"{len(hooks)} / {count} (/hooks, /permissions)",
    )
    versions = f"Python {sys.version.split()[0]}, mcp {_version('mcp')}, prompt_toolkit {_version('prompt_toolkit')}, rich {_version('rich')}"
    _row(repl, sys.version_info >= (3, 11), s.t("versions"), versions, s.t("Python 3.11 or newer"))
