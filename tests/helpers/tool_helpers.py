"""Helpers for the tool tests: a context on a temporary workspace and a scripted user."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tools.base import NoPrompter, ToolContext, ToolOutput
from tools.registry import Registry

REGISTRY = Registry.default()


class ScriptedUser:
    """A Prompter whose answers are given in advance; records every question."""

    interactive = True

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.questions: list[str] = []
        self.details: list[str] = []

    def confirm(self, question: str, detail: str = "", edits: bool = False) -> str:
        self.questions.append(question)
        self.details.append(detail)
        return self.answers.pop(0) if self.answers else "n"

    def ask(self, question: str, choices: list[str]) -> str:
        self.questions.append(question)
        return self.answers.pop(0) if self.answers else ""


def make_ctx(
    workspace: Path, home: Path, prompter: Any = None, mode: str = "ask", yes: bool = False
) -> ToolContext:
    return ToolContext(
        workspace=workspace,
        home=home,
        prompter=prompter or NoPrompter(yes),
        permission_mode=mode,
        session_id="test-session",
    )


def run(ctx: ToolContext, name: str, **args: Any) -> ToolOutput:
    return REGISTRY.execute(name, args, ctx)
