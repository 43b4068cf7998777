"""`!command`: run a shell command through the terminal tool (its permission checks and
sandbox apply) and put its output in the conversation for the model's next turn."""

from __future__ import annotations

from typing import TYPE_CHECKING

from my_agent.messages import user_text

if TYPE_CHECKING:
    from ui.commands import ReplApi

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
