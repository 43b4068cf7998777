"""The project's files as a prompt section, for a small model: it names files it has seen
listed instead of guessing paths (`test/x.py` for `tests/x.py`). Listed once at session start
(the prompt stays the same, so caches keep hitting); a big project gets its first files and
a pointer to list_files."""

from __future__ import annotations

from itertools import islice
from pathlib import Path

from my_agent.messages import PromptSection
from my_agent.walk import walk

MAX_FILES = 40


def files_section(workspace: Path, limit: int = MAX_FILES) -> PromptSection:
    """The first `limit` project files in path order (the walker's: .gitignore respected)."""
    found = [e.rel for e in islice(walk(workspace), limit + 1)]
    lines = found[:limit]
    if len(found) > limit:
        lines.append(f"… more files: list_files shows them (first {limit} listed)")
    return PromptSection("files", "\n".join(lines))
