"""Questions that are asked in every permission mode (kept apart from the mode policy in
tools/permissions.py): reading the user's credential files through the terminal, writing
into a repository's `.git/` (config and hooks run code), saving to global memory; writing the
agent's own configuration is asked in every mode but yolo. A process's
environment (`/proc/*/environ`) is never read: it holds the CLI's own keys."""

from __future__ import annotations

import os
import re
from pathlib import Path

from my_agent.shell.tokenize import parse
from tools.base import ToolContext, ToolError
from tools.sandbox_mounts import PROTECTED_NAMES

# relative to the user's home: folders and files that hold credentials
CREDENTIAL_PATHS = (
    ".ssh",
    ".aws",
    ".gnupg",
    ".config/gcloud",
    ".azure",
    ".kube",
    ".netrc",
    ".git-credentials",
    ".pgpass",
    ".docker/config.json",
    ".claude/.credentials.json",
    ".npmrc",
    ".pypirc",
)
_RAW_CREDENTIAL = re.compile(
    r"(^|[\s/~'\"=])\.(ssh|aws|gnupg|netrc|git-credentials|pgpass|kube|azure)(/|\b)"
    r"|\bid_(rsa|ed25519|ecdsa|dsa)\b|\.credentials\.json|config/gcloud"
)
_ENVIRON = re.compile(r"/proc/[^/\s'\"]*/+environ|/proc/[^\s'\"]*\*[^\s'\"]*environ")


def confirm_always(ctx: ToolContext, action: str, key: str, question: str) -> None:
    """Ask whatever the permission mode ('a': every such action for the session); --yes in
    `-p` approves, `-p` without it refuses."""
    if f"{action}:*" in ctx.approvals or f"{action}:{key}" in ctx.approvals:
        return
    answer = ctx.prompter.confirm(question)
    if answer == "a":
        ctx.approvals.add(f"{action}:*")
    if answer in ("y", "a"):
        return
    if not ctx.prompter.interactive:
        raise ToolError(
            f"refused: {question} Not allowed in a non-interactive run without --yes. "
            "Find another way that stays within the rules."
        )
    raise ToolError(f"refused by the user: {question} Do not retry it; take another approach.")


def reads_environ(text: str) -> bool:
    """A path of some process's environment (/proc/self/environ, /proc/$PPID/environ, ...)."""
    return bool(_ENVIRON.search(text))


def credential_paths(user_home: Path) -> list[Path]:
    return [user_home / rel for rel in CREDENTIAL_PATHS]


def _names_credentials(command: str, cwd: Path, user_home: Path, depth: int = 0) -> bool:
    secret = credential_paths(user_home)
    for pipe in parse(command):
        for cmd in pipe:
            for word in [*cmd.words, *(w for _, w in cmd.redirects)]:
                text = os.path.expandvars(os.path.expanduser(word.text))
                path = Path(os.path.normpath(cwd / text))
                if any(path == s or s in path.parents for s in secret):
                    return True
                if depth < 4 and any(
                    _names_credentials(sub, cwd, user_home, depth + 1) for sub in word.subs
                ):
                    return True
    return False


def check_secret_access(ctx: ToolContext, command: str, cwd: Path) -> None:
    """Refuse a command reading a process environment; ask before one naming a credential
    file (~/.ssh, ~/.aws/credentials, ...), in every permission mode."""
    if reads_environ(command):
        raise ToolError(
            "refused: reading a process environment (/proc/*/environ) would show Unicum's own "
            "API keys. Use `printenv NAME` for an ordinary variable."
        )
    try:
        named = _names_credentials(command, cwd, Path.home())
    except (ValueError, RecursionError):
        named = False
    if named or _RAW_CREDENTIAL.search(command):
        confirm_always(
            ctx,
            "credential_read",
            command,
            f"Run `{command}`? It reads your credential files (SSH keys, cloud credentials).",
        )


def approve_special_path(ctx: ToolContext, target: Path, write: bool) -> None:
    """read_file/write_file/edit_file: a process environment is never read; a write into a
    `.git` folder (config, hooks: git runs them) always asks."""
    if reads_environ(str(target)) or (target.name == "environ" and "proc" in target.parts):
        raise ToolError("refused: a process environment (/proc/*/environ) holds API keys")
    if write and ctx.permission_mode != "yolo" and is_agent_config(target, ctx.workspace):
        confirm_always(
            ctx,
            "agent_config",
            str(target),
            f"Write {target}? It is the agent's own configuration (hooks, MCP servers, commands, "
            "instructions): the next session loads what it says.",
        )
    if write and ".git" in target.parts:
        confirm_always(
            ctx,
            "git_internals",
            str(target),
            f"Write {target}? Git runs what its config and hooks name (core.fsmonitor, "
            "hooks/*): this could run code on the next git command.",
        )


def is_agent_config(target: Path, workspace: Path) -> bool:
    """`.unicum/`, `.claude/`, `.mcp.json`, `.agents/`, `.codex/` or an instruction file at the
    workspace's root (what the sandbox keeps read-only to commands)."""
    try:
        rel = target.resolve().relative_to(workspace.resolve())
    except ValueError:
        return False
    return bool(rel.parts) and rel.parts[0] in PROTECTED_NAMES


def approve_global_memory(ctx: ToolContext, content: str) -> None:
    """Global memory reaches every project's prompt: asked every time (--yes in `-p`)."""
    preview = " ".join(content.split())[:100]
    confirm_always(
        ctx,
        "memory_global",
        "",
        f"Save to global memory (shown in every project): {preview!r}?",
    )
