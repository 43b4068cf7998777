"""`!command`: run a shell command through the terminal tool (its permission checks and
sandbox apply) and put its output in the conversation for the model's next turn."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from my_agent.messages import ToolCall, user_text
from tools.base import NoPrompter

if TYPE_CHECKING:
    from ui.commands import ReplApi

BANG = re.compile(r"!`([^`\n]+)`")  # Claude Code's custom-command form: !`git status`
SHELL_NOTE = "[The user ran `{command}` in the shell themselves; its output:]\n{output}"


def run_shell(repl: ReplApi, command: str) -> None:
    if not command:
        repl.say(repl.s.t("usage: !COMMAND (runs it in the shell)"))
        return
    agent = repl.agent
    output = agent.registry.execute("terminal", {"command": command}, agent.tool_context)
    print(output.content.rstrip(), flush=True)
    if output.is_error:
        repl.say(
            repl.s.t("the command failed; its output goes to the model with your next message"),
            style="yellow",
        )
    agent.history.append(user_text(SHELL_NOTE.format(command=command, output=output.content)))
    repl.session.save()


def run_bangs(repl: ReplApi, body: str) -> str:
    """Each !`cmd` of a custom command's body run through the terminal tool (the command's
    allowed-tools approve it, as in Claude Code; otherwise its approvals ask), its output put
    in its place."""

    def one(match: re.Match[str]) -> str:
        command = match.group(1).strip()
        agent = repl.agent
        ctx = agent.tool_context
        verdict = repl.command_tools.check_tool(ToolCall("bang", "terminal", {"command": command}))
        if verdict is not None and verdict.decision == "approve":
            ctx = replace(ctx, prompter=NoPrompter(approve_all=True))
        repl.say(f"! {command}", style="dim")
        output = agent.registry.execute("terminal", {"command": command}, ctx)
        return output.content.rstrip()

    return BANG.sub(one, body)
