"""The system prompt: a stable base first (cacheable), then per-project sections."""

from __future__ import annotations

import platform
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from my_agent.messages import PromptSection

BASE_PROMPT = """You are Unicum, a coding agent working in the user's project through tools.
- Work in the project folder. Read before you edit; prefer small exact edits (edit_file) over rewrites.
- Run the project's tests or the program after changes and report what you verified.
- Keep answers short; show code only when asked. Say plainly what you could not do.
- Older tool outputs keep only the lines that matter; `[… N lines: recall a7 lines=12-40]` marks the rest. Ask for just what you need: recall(id, lines="12-40") or recall(id, grep="text"); a whole output only when you must.
- code_map(action="overview") maps the project's files and symbols; code_map finds definitions and callers faster than reading files."""


def environment_section(workspace: Path) -> PromptSection:
    text = f"Project folder: {workspace}\nPlatform: {platform.system()} {platform.release()}"
    return PromptSection("environment", text)


def build_system_prompt(workspace: Path, sections: list[PromptSection] | None = None) -> str:
    """Base, environment, then the given sections in order; empty sections are skipped."""
    parts = [BASE_PROMPT, environment_section(workspace).text]
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
