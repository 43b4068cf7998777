"""What the extension commands (custom commands, `/init`, `!`, `@`) use of the REPL."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from core.agent import Agent, CommandTools, LiveSession, SessionOptions, TaskResult
    from ui.terminal import LazyConsole
    from ui.views import Renderer
    from ui.words import Strings


class ReplApi(Protocol):
    s: Strings
    console: LazyConsole
    renderer: Renderer
    opts: SessionOptions
    home: Path
    command_tools: CommandTools  # a custom command's allowed-tools
    plan: bool  # plan mode: read-only tools

    @property
    def session(self) -> LiveSession: ...

    @property
    def agent(self) -> Agent: ...

    def say(self, line: str, style: str = "") -> None: ...

    def ask(self, message: str) -> str: ...

    def run_task(self, text: str, label: str = "") -> None: ...

    def execute_task(self, text: str, label: str = "") -> TaskResult | None: ...

    def expand_command(self, body: str) -> str:
        """A custom command's body with its !`cmd` lines run and its @files attached."""
        ...
