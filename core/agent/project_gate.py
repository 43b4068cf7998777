"""The one gate in front of a project's own extensions (hooks, custom commands)."""

from __future__ import annotations

from pathlib import Path


def project_extensions_allowed(workspace: Path) -> bool:
    """Whether the project's `.unicum/` and `.claude/` hooks and commands may load.

    Every loader of project extensions asks here; the trusted-folders work decides it (until
    then every folder is allowed, as before)."""
    return True
