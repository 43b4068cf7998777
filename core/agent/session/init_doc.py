"""`/init`: an AGENTS.md drafted from the code map's overview and the project's memory."""

from __future__ import annotations

from core.agent.session.codemap_hooks import section_from
from core.codemap import CodeMap
from core.memory import MemoryStore

BEGIN = "<!-- unicum:init -->"
END = "<!-- /unicum:init -->"
OVERVIEW_TOKENS = 1500
BUILD_SECONDS = 120.0


def agents_md(code_map: CodeMap, store: MemoryStore, existing: str | None) -> str:
    """The new AGENTS.md text: an existing file keeps everything outside Unicum's own block,
    which is replaced (or added at the end)."""
    block = f"{BEGIN}\n{_generated(code_map, store)}\n{END}"
    if not existing:
        return f"# AGENTS.md\n\nGuidance for coding agents working in this repository.\n\n{block}\n"
    start, end = existing.find(BEGIN), existing.find(END)
    if 0 <= start < end:
        return existing[:start] + block + existing[end + len(END) :]
    return existing.rstrip("\n") + "\n\n" + block + "\n"


def _generated(code_map: CodeMap, store: MemoryStore) -> str:
    parts = ["## Code map", "", _overview(code_map) or "(no source files indexed)"]
    notes = [entry.content for _, entry in store.entries("project") if entry.content]
    if notes:
        parts += ["", "## Project notes (from Unicum's memory)", ""]
        parts += [f"- {note}" for note in notes]
    return "\n".join(parts)


def _overview(code_map: CodeMap) -> str:
    if not code_map.wait(BUILD_SECONDS):
        return ""
    try:
        code_map.refresh()
        return section_from(code_map, "", OVERVIEW_TOKENS).text.strip()
    except Exception:  # a broken index must not break /init: the notes still help
        return ""
