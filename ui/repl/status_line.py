"""The status line above the prompt: model, context used, session cost, permission mode and git
branch; or, when the settings name Claude Code's `statusLine` command, that command's first line
(it gets Claude Code's JSON on stdin). Worked out once before each prompt, never per key, and
shown when it changed (a line of its own works in every terminal, a toolbar does not)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from my_agent.capped import read_capped_text
from ui.words import N_

STATUS_TIMEOUT = 2.0  # seconds the statusLine command may take


def branch(workspace: Path) -> str:
    """The git branch from `.git/HEAD` (no subprocess), or ""."""
    for folder in (workspace, *workspace.parents):
        head = folder / ".git" / "HEAD"
        if head.is_file():
            try:
                text = read_capped_text(head, 4096, "replace").strip()
            except OSError:
                return ""
            return text.removeprefix("ref: refs/heads/") if text.startswith("ref:") else text[:8]
    return ""


def built_in(repl: Any) -> str:
    from core.agent import breakdown
    from ui.commands import current_mode
    from ui.subcommands import session_totals

    agent = repl.agent
    window = agent.context.window_tokens or agent.client.provider.profile.context_window
    # what the next request carries; none before the first task (the prompt, with the code
    # map's overview, settles then: never wait for it here)
    tokens = sum(n for _, n in breakdown(agent)) if agent.history else 0
    used = f"{100 * tokens / window:.0f}%" if window else "-"
    cost = session_totals(agent.tool_context.session_id).cost_usd
    parts = [agent.client.model, repl.s.t("context {used}", used=used)]
    parts.append(f"${cost:.4f}" if cost is not None else "$-")
    parts.append(repl.s.t(MODE_WORDS.get(current_mode(repl), MODE_WORDS["ask"])))
    parts += [b for b in [branch(agent.tool_context.workspace)] if b]
    return " · ".join(parts)


MODE_WORDS = {
    "ask": N_("default"),
    "auto-edit": N_("accept edits"),
    "plan": N_("plan"),
    "yolo": N_("bypass permissions"),
}


def claude_input(repl: Any, cost: float | None) -> dict:
    """What Claude Code's statusLine command reads on stdin."""
    agent, workspace = repl.agent, str(repl.agent.tool_context.workspace)
    transcript = repl.session.transcript
    return {
        "hook_event_name": "Status",
        "session_id": agent.tool_context.session_id,
        "transcript_path": str(transcript.path) if transcript is not None else "",
        "cwd": workspace,
        "model": {"id": agent.client.model, "display_name": agent.client.model},
        "workspace": {"current_dir": workspace, "project_dir": workspace},
        "output_style": {"name": "default"},
        "cost": {"total_cost_usd": cost or 0.0},
    }


def status_text(repl: Any) -> str:
    """The line to show now ("" while the session is not open)."""
    if repl.live is None:
        return ""
    from core.agent import status_line_command

    workspace = repl.agent.tool_context.workspace
    command = status_line_command(workspace, repl.home)
    line = built_in(repl)
    if not command:
        return line
    from ui.subcommands import session_totals

    cost = session_totals(repl.agent.tool_context.session_id).cost_usd
    try:
        done = subprocess.run(
            command,
            shell=True,
            input=json.dumps(claude_input(repl, cost)),
            capture_output=True,
            text=True,
            timeout=STATUS_TIMEOUT,
            cwd=workspace,
        )
    except (OSError, subprocess.TimeoutExpired):
        return line
    first = (done.stdout.strip().splitlines() or [""])[0]
    return first if done.returncode == 0 and first else line
