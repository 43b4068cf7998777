"""The session's system prompt: the stable base, instruction files, skills, the caller's
sections, then memory last (so provider prompt caches keep hitting)."""

from __future__ import annotations

from pathlib import Path

from core.agent.extensions.skills import skills_section
from core.agent.prompts.files import files_section
from core.agent.prompts.instructions import instructions_section
from core.agent.prompts.system import BASE_PROMPT, LEAN_PROMPT, PromptSection, build_system_prompt
from core.memory import MemoryStore, memory_section


def session_prompt(
    workspace: Path,
    store: MemoryStore,
    task_hint: str = "",
    sections: list[PromptSection] | None = None,
    warnings: list[str] | None = None,
    trusted: bool | None = None,
    lean: bool = False,
) -> str:
    """The system prompt: the stable base, instruction files, skills, the caller's sections,
    then memory last so provider prompt caches keep hitting. An untrusted folder gives no
    imports and no skills (`trusted` None: as remembered in the Unicum home). The lean tool
    set's model gets the small-model base and the project's files."""
    return build_system_prompt(
        workspace,
        [
            instructions_section(workspace, store.home, trusted=trusted),
            skills_section(workspace, store.home, warnings, trusted),  # a malformed SKILL.md
            *(sections or []),
            *([files_section(workspace)] if lean else []),
            memory_section(workspace, task_hint, store),
        ],
        LEAN_PROMPT if lean else BASE_PROMPT,
    )
