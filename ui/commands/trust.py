"""What a folder's trust lets in, said where it matters: /hooks lists the hooks that run, /trust
trusts this folder, and /mcp, /hooks and /cd name in one line what an untrusted folder's files
would have loaded. /mcp restart NAME starts one of its servers afresh."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text

from core.agent import skipped_by_trust
from my_agent.trust import trust_folder

Repl = Any  # the REPL as commands see it (ui.commands.registry.Repl; typed there)


def trust_note(repl: Repl, workspace: Path | None = None) -> None:
    """One line naming what this folder has that is not loaded, when it is not trusted."""
    folder = workspace or repl.agent.tool_context.workspace
    skipped = skipped_by_trust(folder)
    if skipped:
        what = ", ".join(repl.s.t(item) for item in skipped)
        repl.say(
            repl.s.t(
                "{folder} is not trusted, so its {what} are not loaded (/trust to trust it)",
                folder=folder,
                what=what,
            ),
            style="yellow",
        )


def cmd_hooks(repl: Repl, arg: str) -> None:
    hooks = repl.session.user_hooks.hooks if repl.session.user_hooks else []
    if not hooks:
        repl.say(
            repl.s.t(
                "No hooks configured (hooks in ~/.unicum-agent/settings.json, "
                ".unicum/settings.json or .claude/settings.json)."
            )
        )
    for hook in hooks:
        matcher = f" [{hook.matcher}]" if hook.matcher else ""
        line = Text.assemble((hook.event, "bold"), matcher, f"  {hook.command}  ")
        line.append(f"({hook.source})", style="dim")
        repl.console.print(line)
    trust_note(repl)


def cmd_trust(repl: Repl, arg: str) -> None:
    folder = repl.agent.tool_context.workspace
    if not skipped_by_trust(folder) and arg != "force":
        repl.say(repl.s.t("{folder} is trusted already", folder=folder))
        return
    try:
        trust_folder(folder)
    except OSError as exc:
        repl.say(repl.s.t("cannot remember the trust: {detail}", detail=exc), style="red")
        return
    repl.new_session()  # its hooks, MCP servers, commands, agents and rules load now
    repl.say(repl.s.t("trusted: {folder} (remembered); a new session loads it", folder=folder))


def restart_server(repl: Repl, hub: Any, name: str) -> None:
    """/mcp restart NAME: the server stopped and started afresh (its tools keep their names)."""
    if name not in hub.servers:
        known = ", ".join(sorted(hub.servers)) or "-"
        repl.say(repl.s.t("no MCP server {name} (servers: {known})", name=name, known=known))
        return
    hub.settle()  # a first start still under way finishes (or fails) first
    if not hub.restart(name):
        repl.say(repl.s.t("cannot restart {name}: the MCP servers are not running", name=name))
        return
    state = hub.servers[name]
    state.settled.wait(hub.timeout)
    hub.refresh()
    why = f": {state.reason}" if state.reason else ""
    repl.say(repl.s.t("restarted {name}: {status}", name=name, status=state.status + why))
