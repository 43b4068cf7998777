"""Where Unicum reads its own files (home and project), and how to plant a 6 GB sparse file, a
link to /dev/zero or a FIFO there (tests/core/agent/session/test_capped_reads.py, bench)."""

from __future__ import annotations

import os
from pathlib import Path

from my_agent.home import project_id

SIX_GB = 6 * 1024**3
GOOD_SKILL = "---\nname: good-skill\ndescription: GOOD-SKILL-LOADED\n---\nbody\n"
GOOD_AGENT = "---\nname: good-agent\ndescription: GOOD-AGENT-LOADED\n---\nbody\n"


def home_places(home: Path, workspace: Path) -> list[Path]:
    memory = home / "memory" / "projects" / project_id(workspace)
    return [
        home / "settings.json",
        home / ".env",
        home / "AGENTS.md",
        home / "approvals.json",
        home / "mcp-approvals.json",
        home / "cache" / "secret-shapes.json",
        home / "memory" / "global.json",
        memory / "memory.json",
        memory / "consolidation.json",
        memory / "index.sqlite",
        home / "agents" / "bad.md",
        home / "commands" / "bad.md",
        home / "skills" / "bad" / "SKILL.md",
    ]


def project_places(workspace: Path) -> list[Path]:
    return [
        workspace / ".mcp.json",
        workspace / ".env",
        workspace / "AGENTS.md",
        workspace / ".unicum" / "settings.json",
        workspace / ".claude" / "settings.json",
        workspace / ".claude" / "settings.local.json",
        workspace / ".claude" / "commands" / "bad.md",
        workspace / ".claude" / "skills" / "bad" / "SKILL.md",
        workspace / ".claude" / "agents" / "bad.md",
        workspace / "src" / "huge.py",
        workspace / ".git" / "info" / "exclude",
        workspace / ".gitignore",
        workspace / "pyproject.toml",
        workspace / "package.json",
        workspace / "tsconfig.json",
    ]


def plant(path: Path, kind: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    if kind == "sparse":
        with path.open("wb") as fh:
            fh.write(b"{")
            fh.truncate(SIX_GB)
    elif kind == "zero":
        os.symlink("/dev/zero", path)
    else:
        os.mkfifo(path)
