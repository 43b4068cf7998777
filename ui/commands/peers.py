"""Other agents' everyday slash commands, and what to type here instead: an unknown command
that one of them has gets that hint rather than a bare "unknown command"."""

from __future__ import annotations

from ui.words import N_

# name → (whose, what to do here)
PEER_COMMANDS: dict[str, tuple[str, str]] = {
    "/add": ("Aider", N_("mention the file as @path in your message (Tab completes it)")),
    "/drop": ("Aider", N_("files are not kept in the context here; nothing to drop")),
    "/ask": ("Aider", N_("use /plan: read-only tools until you approve a plan")),
    "/architect": ("Aider", N_("use /plan: read-only tools until you approve a plan")),
    "/run": ("Aider", N_("type !COMMAND to run it in the shell")),
    "/test": ("Aider", N_("type !COMMAND to run your tests in the shell")),
    "/tokens": ("Aider", N_("use /context (the next request) or /usage (the session)")),
    "/map": ("Aider", N_("the code map's overview is in the prompt; /context shows its size")),
    "/reset": ("Aider", N_("use /new (or /clear)")),
    "/commit": ("Aider", N_("ask the model to commit, or type !git commit")),
    "/status": ("Claude Code", N_("use /model, /context and /usage")),
    "/approvals": ("Codex", N_("Shift-Tab cycles the permission modes")),
    "/add-dir": (
        "Claude Code",
        N_("start with --add-dir DIR (or permissions.additionalDirectories)"),
    ),
    "/review": (
        "Codex",
        N_("ask for a review, or write a custom command in .claude/commands/review.md"),
    ),
    "/export": ("Claude Code", N_("the transcript is saved: /resume lists the sessions")),
    "/models": ("Aider", N_("use /model")),
    "/login": ("Claude Code", N_("keys come from the environment or ~/.unicum-agent/.env")),
    "/logout": ("Claude Code", N_("keys come from the environment or ~/.unicum-agent/.env")),
    "/bug": ("Claude Code", N_("not available here")),
}


def peer_hint(name: str) -> tuple[str, str] | None:
    """(whose command it is, what to do here), or None when no peer has it."""
    return PEER_COMMANDS.get(name.lower())
