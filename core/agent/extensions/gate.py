"""The one gate in front of a project's own configuration, and what it keeps out.

A folder the user did not trust loads none of what can run code or change what is allowed:
its `.env`, instruction `@imports`, skills, hooks, MCP servers (`.mcp.json`), custom commands,
agent definitions and permission rules. `skipped_by_trust` names those the folder has, for the
one line `/mcp`, `/hooks` and `/cd` show."""

from __future__ import annotations

from pathlib import Path

from core.agent.prompts.instructions import project_root
from my_agent.trust import extensions_allowed, is_trusted

# what a folder may hold that trust gates, and the words for it (paths from the project root)
GATED: tuple[tuple[str, tuple[str, ...]], ...] = (
    (".env", (".env",)),
    ("hooks and permission rules", tuple(f"{d}/{f}" for d in (".unicum", ".claude")
                                         for f in ("settings.json", "settings.local.json"))),
    ("MCP servers", (".mcp.json",)),
    ("custom commands", (".unicum/commands", ".claude/commands")),
    ("agents", (".unicum/agents", ".claude/agents")),
    ("skills", (".unicum/skills", ".claude/skills")),
)  # fmt: skip


def project_extensions_allowed(workspace: Path) -> bool:
    """Whether the project's `.unicum/` and `.claude/` hooks, rules, commands and agents may
    load. Every loader of project extensions asks here: only a folder the user trusted
    (remembered, or `--trust-project` for this run: a one-run `--trust` loads only its .env,
    imports and skills), whose extension files have not changed since trust was given (else
    not until the user confirms them)."""
    return extensions_allowed(workspace)


def skipped_by_trust(workspace: Path) -> list[str]:
    """What this folder has that is not loaded because it is not trusted ([] when trusted)."""
    if is_trusted(workspace):
        return []
    root = project_root(workspace)
    return [what for what, paths in GATED if any((root / p).exists() for p in paths)]
