"""`/init`: what the model is asked for AGENTS.md (with the code map's overview and the
project's memory, and the current file to revise), and the file read back from its answer.

The model reads the files it chooses (read-only tools: the task runs in plan mode) and answers
with the whole file; the REPL shows the diff and writes it only when the person says yes."""

from __future__ import annotations

import re

from core.agent.session.codemap_hooks import section_from
from core.codemap import CodeMap
from core.memory import MemoryStore

OVERVIEW_TOKENS = 1500
BUILD_SECONDS = 120.0
ASK = (
    "Write the AGENTS.md file for this repository: the guidance a coding agent needs to work "
    "here. Say what the project is; how to set it up, build, run it, run the tests and the "
    "linters (exact commands, as the project's own files give them); where things live; the "
    "conventions to follow; the pitfalls. Read the files you need first (README, the build and "
    "test configuration, a few central modules) and do not guess a command you have not seen. "
    "Keep it short (at most about 150 lines), specific to this repository, no generic advice. "
    "Your final reply is the complete file and nothing else, in one ```markdown block; it is "
    "shown to the user as a diff and written only if they approve it."
)
_FENCE = re.compile(r"```(?:markdown|md)?[ \t]*\n(.*)\n```", re.DOTALL)


def init_request(code_map: CodeMap, store: MemoryStore, existing: str | None) -> str:
    """The task `/init` gives the model."""
    parts = [ASK]
    if existing:
        parts.append(
            "The current AGENTS.md is below: keep what is still right (and the user's own "
            f"sections), fix what is not, add what is missing.\n\n<current>\n{existing}\n</current>"
        )
    overview = _overview(code_map)
    if overview:
        parts.append(f"The code map's overview of the repository:\n\n{overview}")
    notes = [entry.content for _, entry in store.entries("project") if entry.content]
    if notes:
        parts.append(
            "What Unicum remembers about this project:\n" + "\n".join(f"- {n}" for n in notes)
        )
    return "\n\n".join(parts)


def document_from(answer: str) -> str:
    """The file in the model's answer: its ```markdown block (the outermost), else the whole
    answer; "" when there is none."""
    found = _FENCE.search(answer)
    text = (found.group(1) if found else answer).strip()
    return text + "\n" if text else ""


def _overview(code_map: CodeMap) -> str:
    if not code_map.wait(BUILD_SECONDS):
        return ""
    try:
        code_map.refresh()
        return section_from(code_map, "", OVERVIEW_TOKENS).text.strip()
    except Exception:  # a broken index must not break /init: the model reads files itself
        return ""
