"""What every tool shares: the declarative record, its run-time context and its output."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from my_agent.images import ImageLimits
from my_agent.messages import ImageBlock
from tools.services import ToolServices


class ToolError(Exception):
    """Raised by a handler for an ordinary failure; becomes an error result for the model."""


class Prompter(Protocol):
    """How a tool asks the person at the keyboard. Non-interactive runs answer without asking."""

    interactive: bool

    def confirm(self, question: str, detail: str = "", edits: bool = False) -> str:
        """Ask `question`, showing `detail` (a diff) first. Return 'y' (once), 's' (this session,
        for this file or command kind; `edits`: every edit, and the key says so), 'a' (always,
        saved for the project), 'n' (no) or 'e:<why>' (no, and `why` goes back to the model)."""
        ...

    def ask(self, question: str, choices: list[str]) -> str: ...


class NoPrompter:
    """The `-p` stand-in: nobody is there, so nothing is approved unless pre-approved."""

    interactive = False

    def __init__(self, approve_all: bool = False) -> None:
        self.approve_all = approve_all

    def confirm(self, question: str, detail: str = "", edits: bool = False) -> str:
        return "y" if self.approve_all else "n"

    def ask(self, question: str, choices: list[str]) -> str:
        return ""


@dataclass
class ToolContext:
    workspace: Path
    home: Path
    prompter: Prompter = field(default_factory=NoPrompter)
    permission_mode: str = "ask"  # ask | auto-edit | yolo | plan (read-only tools only)
    session_id: str = ""
    services: ToolServices = field(default_factory=ToolServices)
    approvals: set[str] = field(default_factory=set)  # "this session" answers
    image_limits: ImageLimits | None = None  # None: the model takes no images
    command_env: dict[str, str] = field(default_factory=dict)  # the project .env's, for commands


@dataclass
class ToolOutput:
    content: str
    is_error: bool = False
    data: dict[str, Any] = field(default_factory=dict)  # structured details for facts/archive
    images: list[ImageBlock] = field(default_factory=list)  # sent to a vision model with it


Handler = Callable[[ToolContext, dict[str, Any]], "str | ToolOutput"]


def _always(ctx: ToolContext) -> str | None:
    return None


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema of an object
    handler: Handler
    available: Callable[[ToolContext], str | None] = _always  # reason it is unavailable, or None
    key_arg: str = ""  # the argument the UI shows on the tool's one line
    read_only: bool = False  # changes nothing: allowed in the plan mode
    brief: bool = True  # may go in the brief wire form (an MCP server's schema goes as it came)


def params(required: list[str] | None = None, **props: dict[str, Any]) -> dict[str, Any]:
    """A compact JSON-schema object: params(["path"], path={"type": "string"})."""
    return {
        "type": "object",
        "properties": props,
        "required": required or [],
        "additionalProperties": False,
    }
