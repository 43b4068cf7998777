"""The services core lends to tools through `ToolContext.services` (tools never import core)."""

from __future__ import annotations

from pathlib import Path

from core.agent.extensions.skills import SkillBook
from core.codemap import CodeMap
from core.context import Archive
from core.memory import MemoryStore
from tools.services import ToolServices


def tool_services(
    workspace: Path,
    home: Path,
    memory: MemoryStore | None = None,
    code_map: CodeMap | None = None,
    archive: Archive | None = None,
    trusted: bool | None = None,
) -> ToolServices:
    """Memory store, skill book and code map for one workspace (each opens its files lazily),
    and the session's archive for `recall` when there is one."""
    return ToolServices(
        memory=memory or MemoryStore(home, workspace),
        skills=SkillBook(workspace, home, trusted),
        codemap=code_map or CodeMap(workspace, home),
        archive=archive,
    )
