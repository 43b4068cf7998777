"""The system prompt: a stable base first (cacheable), then per-project sections."""

from __future__ import annotations

import platform
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from my_agent.messages import PromptSection

BASE_PROMPT = """You are Unicum, a coding agent working in the user's project through tools.
- Read before you edit; prefer small exact edits (edit_file) to rewrites.
- After changes run the tests or the program; report what you verified.
- Keep answers short; show code only when asked. Say plainly what you could not do.
- Older outputs keep only the lines that matter; `[… N lines: recall a7 lines=12-40]` marks the rest. Ask for just those: recall(id, lines="12-40") or recall(id, grep="text"), a whole output only when you must.
- code_map (overview first) finds files, definitions and callers faster than reading files."""

# the lean tool set's base: a small model is told the steps of a task and that it makes the
# change itself; no tools it is not offered (code_map; recall names itself in each stand-in)
LEAN_PROMPT = """You are Unicum, a coding agent working in the user's project through tools. You make the changes yourself with the tools: the user does not edit files or run commands for you.
- Paths are relative to the project folder: use the file names listed under Files.
- Work in steps: run the tests or the program with terminal to see what fails; read_file the file it names; change it with edit_file, old_string copied exactly from what read_file showed (without the line numbers); run the tests again.
- Change the code the task is about; change tests only when the task asks for it.
- Only a tool call changes a file or runs a command: never say you changed or ran something without the call that did it. When the work is done, answer in one or two sentences with what the tools showed."""


def environment_section(workspace: Path) -> PromptSection:
    text = f"Project folder: {workspace}\nPlatform: {platform.system()} {platform.release()}"
    return PromptSection("environment", text)


def build_system_prompt(
    workspace: Path, sections: list[PromptSection] | None = None, base: str = BASE_PROMPT
) -> str:
    """Base, environment, then the given sections in order; empty sections are skipped."""
    parts = [base, environment_section(workspace).text]
    for section in sections or []:
        if section.text.strip():
            parts.append(f"## {section.name.title()}\n{section.text.strip()}")
    return "\n\n".join(parts)


class SystemPrompt(Protocol):
    """The system prompt the agent sends; asked at each task start, where it may settle (the
    code map's overview joins it at the first task)."""

    @property
    def text(self) -> str: ...

    def start_task(self, task: str) -> None: ...


@dataclass
class FixedPrompt:
    """A system prompt that never changes."""

    text: str

    def start_task(self, task: str) -> None:
        return None
