"""The services core lends to tools through `ToolContext.services` (tools never import core)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from core.agent.skills import SkillBook
from core.codemap import CodeMap
from core.memory import MemoryStore


def tool_services(workspace: Path, home: Path, memory: MemoryStore | None = None) -> dict[str, Any]:
    """Memory store, skill book and code map for one workspace; each opens its files lazily."""
    return {
        "memory": memory or MemoryStore(home, workspace),
        "skills": SkillBook(workspace, home),
        "codemap": CodeMap(workspace, home),
    }
