"""The interactive REPL (minimal form: prompt, streamed reply, /quit)."""

from __future__ import annotations

import argparse
import sys

from core.errors import Interrupted, UnicumError
from core.events import AgentHooks
from core.messages import StreamEvent, TextDelta, ToolCall
from core.session import SessionOptions, create_agent
from my_agent.config import ConfigError
from tools.base import ToolOutput


class ScreenHooks(AgentHooks):
    def __init__(self, console) -> None:
        self.console = console

    def on_stream(self, event: StreamEvent) -> None:
        if isinstance(event, TextDelta):
            self.console.print(event.text, end="", markup=False, highlight=False)

    def on_tool_start(self, call: ToolCall) -> None:
        arg = next(iter(call.arguments.values()), "") if call.arguments else ""
        self.console.print(f"\n[dim]· {call.name} {str(arg)[:80]}[/dim]", highlight=False)

    def on_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        mark = "[red]✗[/red]" if output.is_error else "[green]✓[/green]"
        self.console.print(f"  {mark} {seconds:.1f}s")


def run_repl(args: argparse.Namespace) -> int:
    from prompt_toolkit import PromptSession
    from rich.console import Console

    console = Console()
    opts = SessionOptions(workspace=args.dir, provider=args.provider, model=args.model,
                          permission_mode=args.permission_mode, yes=args.yes,
                          max_turns=args.max_turns,
                          codemap=not getattr(args, "no_codemap", False))
    try:
        agent = create_agent(opts, hooks=ScreenHooks(console))
    except (ConfigError, UnicumError) as exc:
        print(f"unicum: {exc}", file=sys.stderr)
        return 2
    session: PromptSession = PromptSession()
    while True:
        try:
            line = session.prompt("unicum> ").strip()
        except (EOFError, KeyboardInterrupt):
            return 0
        if line in ("/quit", "/exit"):
            return 0
        if not line:
            continue
        try:
            result = agent.run(line)
            console.print()
            if result.stop != "done":
                console.print(result.text)
        except Interrupted as exc:
            console.print(f"\n[yellow]{exc}[/yellow]")
        except UnicumError as exc:
            console.print(f"\n[red]{exc}[/red]")
