"""The one gate in front of a project's own extensions (hooks, custom commands)."""

from __future__ import annotations

from pathlib import Path

from my_agent.trust import extensions_allowed


def project_extensions_allowed(workspace: Path) -> bool:
    """Whether the project's `.unicum/` and `.claude/` hooks, commands and agent definitions
    may load.

    Every loader of project extensions asks here: only a folder the user trusted (and
    remembered: a one-run `--trust` does not load a project's hooks or commands), whose
    extension files have not changed since (else until the user confirms them)."""
    return extensions_allowed(workspace)
