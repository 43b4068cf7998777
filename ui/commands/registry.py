"""Slash commands, as a table: name → (help key, handler). A handler returns True to quit."""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from rich.table import Table
from rich.text import Text

from ui.commands.agents import cmd_agents
from ui.commands.config import cmd_config
from ui.commands.custom import help_rows, run_custom
from ui.commands.doctor import cmd_doctor
from ui.commands.git import cmd_commit
from ui.commands.init import cmd_init
from ui.commands.model import cmd_model
from ui.commands.peers import peer_hint
from ui.commands.permissions import cmd_permissions
from ui.commands.plan import cmd_plan
from ui.commands.resume import cmd_resume
from ui.commands.trust import cmd_hooks, cmd_trust, restart_server, trust_note
from ui.commands.undo import cmd_diff, cmd_rewind, cmd_undo
from ui.commands.usage import context_tokens, render_context, render_usage
from ui.commands.vim import cmd_vim
from ui.words import N_

if TYPE_CHECKING:
    from core.agent import Agent, LiveSession, SessionOptions
    from ui.terminal import LazyConsole
    from ui.views import Renderer
    from ui.words import Strings


class Repl(Protocol):
    """What a command uses of the REPL: its screen, its options and its session."""

    s: Strings
    console: LazyConsole
    renderer: Renderer
    opts: SessionOptions
    home: Path

    @property
    def session(self) -> LiveSession: ...

    @property
    def agent(self) -> Agent: ...

    def say(self, line: str, style: str = "") -> None: ...

    def ask(self, message: str) -> str: ...

    def new_session(self, workspace: Path | None = None, resume: Path | None = None) -> None: ...

    def recap(self) -> None: ...

    def run_task(self, text: str, label: str = "") -> None: ...  # custom commands run as tasks


Handler = Callable[[Repl, str], "bool | None"]


@dataclass(frozen=True)
class Command:
    name: str
    help_key: str
    handler: Handler
    args: str = ""  # how the argument is written in /help


def cmd_help(repl: Repl, arg: str) -> None:
    table = Table(
        title=repl.s.t("Commands"),
        show_header=False,
        box=None,
        padding=(0, 2),
        title_justify="left",
    )
    for command in COMMANDS.values():
        if command.name != "/exit":
            name = Text(f"{command.name} {command.args}".strip())  # `[tasks]` is no markup
            table.add_row(name, repl.s.t(command.help_key))
    for row in help_rows(repl, set(COMMANDS)):
        table.add_row(*row)
    repl.console.print(table)
    repl.console.print(
        Text(
            repl.s.t(
                "Esc+Enter or Alt+Enter: new line · Tab: complete · Ctrl-V: paste a "
                "clipboard image (or text) · Ctrl-C: stop the current work · Ctrl-D: "
                "exit"
            ),
            style="dim",
        )
    )


def cmd_quit(repl: Repl, arg: str) -> bool:
    return True


def cmd_new(repl: Repl, arg: str) -> None:
    repl.new_session(ending="clear")
    repl.say(repl.s.t("new session {id}", id=repl.opts.session_id))


def cmd_cd(repl: Repl, arg: str) -> None:
    if not arg:
        repl.say(repl.s.t("usage: /cd DIR"))
        return
    target = Path(arg).expanduser()
    if not target.is_absolute():
        target = repl.agent.tool_context.workspace / target
    if not target.is_dir():
        repl.say(repl.s.t("error: {path}: not a folder", path=arg), style="red")
        return
    repl.new_session(workspace=target.resolve())
    repl.say(
        repl.s.t("now working in {path} (new session)", path=repl.agent.tool_context.workspace)
    )
    trust_note(repl)


def cmd_tools(repl: Repl, arg: str) -> None:
    agent = repl.agent
    table = Table(
        title=repl.s.t("Tools"),
        show_header=False,
        box=None,
        padding=(0, 1),
        title_justify="left",
    )
    rows = list(agent.registry.availability(agent.tool_context).items())
    rows += repl.session.extensions.pending(agent.tool_context)  # plugins', MCP servers'
    for name, reason in rows:
        joins = reason is not None and reason.startswith("joins")
        mark = Text("✗", style="red") if reason and not joins else Text("✓", style="green")
        table.add_row(mark, name, Text(reason or "", style="dim"))
    repl.console.print(table)


def cmd_mcp(repl: Repl, arg: str) -> None:
    hub = repl.session.extensions.mcp
    verb, _, name = arg.partition(" ")
    if verb == "restart":
        restart_server(repl, hub, name.strip())
        return
    trust_note(repl)
    if not hub.servers:
        repl.say(
            repl.s.t(
                "No MCP servers configured (.mcp.json in the project, mcpServers in "
                "config.json; `unicum mcp add`)."
            )
        )
        return
    hub.refresh()
    styles = {"ready": "green", "starting": "yellow"}
    for name, state in sorted(hub.servers.items()):
        config = state.config
        status = Text(state.status, style=styles.get(state.status, "red"))
        line = Text.assemble(
            (name, "bold"), f"  {config.transport} {config.target}  ({config.source})  ", status
        )
        if state.reason:
            line.append(f": {state.reason}", style="dim")
        repl.console.print(line)
        tools = ", ".join(tool["name"] for tool in state.tools)
        if tools:
            repl.console.print(Text(f"    {tools}", style="dim"))


def cmd_usage(repl: Repl, arg: str) -> None:
    if arg == "tasks":
        from ui.commands.usage_tasks import render_session_tasks

        render_session_tasks(repl.console, repl.agent, repl.s, repl.home)
        return
    render_usage(repl.console, repl.s, repl.agent, repl.renderer.children)


def cmd_compact(repl: Repl, arg: str) -> None:
    from core.agent import compact_session

    before = context_tokens(repl.agent)
    repl.renderer.spin(repl.s.t("compacting the conversation…"))
    try:
        summary = compact_session(repl.agent)
    finally:
        repl.renderer.stop_live()
    if not summary:
        repl.say(repl.s.t("nothing to compact yet"))
        return
    repl.session.save()  # a resumed session goes on from the summary
    repl.say(
        repl.s.t(
            "context: {before} → {after} tokens",
            before=f"{before:,}",
            after=f"{context_tokens(repl.agent):,}",
        )
    )


def cmd_context(repl: Repl, arg: str) -> None:
    render_context(repl.console, repl.s, repl.agent)


def cmd_memory(repl: Repl, arg: str) -> None:
    """Memory entries and the instruction files loaded into the prompt (`cli.py memory list`)."""
    from ui.subcommands import memory_main

    memory_main(["list", "--dir", str(repl.agent.tool_context.workspace)], repl.s)


COMMANDS: dict[str, Command] = {
    c.name: c
    for c in (
        Command("/help", N_("show this help"), cmd_help),
        Command("/new", N_("fresh session: clear the conversation, reload memory"), cmd_new),
        Command("/clear", N_("the same as /new"), cmd_new),
        Command("/cd", N_("work in another folder (a new session with its memory)"), cmd_cd, "DIR"),
        Command("/tools", N_("each tool, available or why not"), cmd_tools),
        Command(
            "/mcp", N_("MCP servers: status and tools; restart one"), cmd_mcp, "[restart NAME]"
        ),
        Command(
            "/permissions",
            N_("permission rules and saved approvals; add, remove or forget one"),
            cmd_permissions,
            "[allow|ask|deny RULE | remove RULE | forget KEY]",
        ),
        Command("/doctor", N_("what Unicum runs with, and what to fix"), cmd_doctor),
        Command("/hooks", N_("the hooks that run, from which settings file"), cmd_hooks),
        Command(
            "/trust", N_("trust this folder: load its hooks, MCP servers, commands"), cmd_trust
        ),
        Command(
            "/usage",
            N_("tokens and cost of this session (tasks: one row per task)"),
            cmd_usage,
            "[tasks]",
        ),
        Command("/cost", N_("the same as /usage"), cmd_usage, "[tasks]"),
        Command("/model", N_("show or switch the model"), cmd_model, "[NAME]"),
        Command(
            "/config",
            N_("the settings and where they are kept; change them with key=value"),
            cmd_config,
            "[key=value …|--help]",
        ),
        Command("/settings", N_("the same as /config"), cmd_config, "[key=value …|--help]"),
        Command("/compact", N_("compress the conversation now"), cmd_compact),
        Command("/context", N_("what the next request holds, in tokens"), cmd_context),
        Command("/memory", N_("this project's memories"), cmd_memory),
        Command(
            "/init",
            N_("the model writes AGENTS.md from the code map, memory and files (diff first)"),
            cmd_init,
        ),
        Command(
            "/undo",
            N_("take back the last turn's file changes, all files at once (N: the last N turns)"),
            cmd_undo,
            "[N] [force]",
        ),
        Command(
            "/rewind",
            N_("go back to before an earlier turn: files, conversation or both"),
            cmd_rewind,
            "[N] [files|chat|both]",
        ),
        Command(
            "/diff",
            N_("what this session changed in the files, and git's working tree against HEAD"),
            cmd_diff,
            "[stat]",
        ),
        Command(
            "/commit",
            N_("commit what is staged with a message the model writes (you approve it)"),
            cmd_commit,
            "[HINT]",
        ),
        Command(
            "/resume",
            N_("pick a saved session of this folder and continue it"),
            cmd_resume,
            "[N|ID]",
        ),
        Command(
            "/plan",
            N_("plan mode on/off (with a task: plan it); Shift-Tab cycles the modes"),
            cmd_plan,
            "[TASK]",
        ),
        Command("/agents", N_("sub-agents the task tool can start"), cmd_agents),
        Command("/quit", N_("exit"), cmd_quit),
        Command(
            "/vim", N_("vi key bindings on the input line on/off (saved)"), cmd_vim, "[on|off]"
        ),
        Command("/exit", N_("exit"), cmd_quit),
    )
}


# built-ins that only write a prompt for the model: a custom command of the same name (Claude
# Code's documented commit.md, say) is what its owner means, so it wins
YIELDS_TO_CUSTOM = ("/commit", "/init")


def dispatch(repl: Repl, line: str) -> bool:
    """Run one slash command line; True means quit."""
    name, _, arg = line.strip().partition(" ")
    command = COMMANDS.get(name.lower())
    if (command is None or name.lower() in YIELDS_TO_CUSTOM) and run_custom(
        repl, name, arg.strip()
    ):
        return False
    peer = peer_hint(name) if command is None else None
    if command is None and peer is not None:
        repl.say(
            repl.s.t("{name} is {whose}'s command; here: {hint}", name=name, whose=peer[0],
                     hint=repl.s.t(peer[1])),
            style="yellow",
        )  # fmt: skip
        return False
    if command is None:
        guess = difflib.get_close_matches(name.lower(), list(COMMANDS), n=1, cutoff=0.65)
        key = (
            N_("unknown command {name}: did you mean {guess}?")
            if guess
            else N_("unknown command {name}")
        )
        repl.say(repl.s.t(key, name=name, guess=guess[0] if guess else ""), style="yellow")
        return False
    return bool(command.handler(repl, arg.strip()))
