"""Custom slash commands: Markdown files whose body is the prompt (Claude Code's format), and
skills, which are invocable as `/name` too."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from core.agent.events import AgentHooks, TaskResult, ToolVerdict
from core.agent.extensions.gate import project_extensions_allowed
from core.agent.extensions.skills import (
    FrontMatterError,
    discover_skills,
    skill_body,
    split_front_matter,
)
from core.agent.prompts.instructions import project_root
from my_agent.capped import DOCUMENT, NotRead, read_capped_text
from my_agent.messages import ToolCall
from tools.claude_rules import allowing, parse_rule

ARGUMENT = re.compile(r"\$(ARGUMENTS|[1-9])")


@dataclass(frozen=True)
class CustomCommand:
    name: str  # as typed, with the slash: "/review", "/frontend:lint"
    description: str
    argument_hint: str
    allowed_tools: tuple[str, ...]
    path: Path
    skill: bool = False

    def prompt(self, arguments: str) -> str:
        """The task this command sends, its placeholders filled from `arguments`."""
        body = skill_body(self) if self.skill else _body(self.path)
        return expand(body, arguments)


def command_dirs(workspace: Path, home: Path) -> list[Path]:
    """User commands first; the project's later, so they override (where they may load)."""
    dirs = [home / "commands"]
    if project_extensions_allowed(workspace):
        root = project_root(workspace)
        dirs += [root / ".unicum" / "commands", root / ".claude" / "commands"]
    return dirs


def discover_commands(
    workspace: Path, home: Path, warnings: list[str] | None = None
) -> dict[str, CustomCommand]:
    """Skills, then command files (a command file wins over a skill of the same name)."""
    found: dict[str, CustomCommand] = {}
    for skill in discover_skills(workspace, home).values():
        name = f"/{skill.name}"
        found[name] = CustomCommand(name, skill.description, "", (), skill.path, skill=True)
    for folder in command_dirs(workspace, home):
        if folder.is_dir():
            for path in sorted(folder.rglob("*.md")):
                command = read_command(folder, path, warnings)
                if command is not None:
                    found[command.name] = command
    return dict(sorted(found.items()))


def read_command(folder: Path, path: Path, warnings: list[str] | None) -> CustomCommand | None:
    """`folder/sub/name.md` is `/sub:name` (Claude Code's namespaces)."""
    try:
        meta, body = split_front_matter(read_capped_text(path, DOCUMENT, errors="replace"))
    except NotRead as exc:
        if warnings is not None:
            warnings.append(str(exc))
        return None
    except OSError:
        return None
    except FrontMatterError as exc:
        if warnings is not None:
            warnings.append(f"command {path} skipped: {exc}")
        return None
    name = "/" + ":".join(path.relative_to(folder).with_suffix("").parts)
    description = " ".join(str(meta.get("description") or _first_line(body)).split())[:120]
    tools = meta.get("allowed-tools") or ()
    if isinstance(tools, str):
        tools = [t.strip() for t in tools.split(",")]
    hint = str(meta.get("argument-hint") or "")
    return CustomCommand(name, description, hint, tuple(str(t) for t in tools if t), path)


def expand(body: str, arguments: str) -> str:
    """`$ARGUMENTS` is the whole argument line, `$1`… its words; arguments given to a body
    with no placeholder are appended (as Claude Code does)."""
    import shlex  # not before the prompt: only when a command runs

    try:
        words = shlex.split(arguments)
    except ValueError:
        words = arguments.split()

    def fill(match: re.Match[str]) -> str:
        key = match.group(1)
        if key == "ARGUMENTS":
            return arguments
        n = int(key)
        return words[n - 1] if n <= len(words) else ""

    text = body.strip()
    if ARGUMENT.search(text):
        return ARGUMENT.sub(fill, text)
    return f"{text}\n\nARGUMENTS: {arguments}" if arguments else text


def _body(path: Path) -> str:
    _, body = split_front_matter(read_capped_text(path, DOCUMENT, errors="replace"))
    return body


def _first_line(body: str) -> str:
    return next((line.strip("# ") for line in body.splitlines() if line.strip()), "")


def allows(entries: tuple[str, ...], call: ToolCall, workspace: Path) -> bool:
    """Whether an `allowed-tools` entry covers `call`: a rule in Claude Code's syntax
    (`Read`, `Bash(git diff:*)`, `Edit(src/**)`, `mcp__srv`), Unicum's tool names too."""
    rules = [rule for entry in entries if (rule := parse_rule(entry)) is not None]
    return allowing(rules, call.name, call.arguments, workspace) is not None


class CommandTools(AgentHooks):
    """While a custom command's task runs, its `allowed-tools` run without asking."""

    def __init__(self, workspace: Path = Path(".")) -> None:
        self.allowed: tuple[str, ...] = ()
        self.workspace = workspace

    def check_tool(self, call: ToolCall) -> ToolVerdict | None:
        return ToolVerdict("approve") if allows(self.allowed, call, self.workspace) else None

    def on_task_end(self, result: TaskResult) -> None:
        self.allowed = ()
