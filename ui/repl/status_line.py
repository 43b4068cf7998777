"""The status line, the prompt's bottom toolbar: model, context used, session cost, permission
mode and git branch; or, when the settings name Claude Code's `statusLine` command, what that
command prints (it gets Claude Code's JSON on stdin; each line a row, its colours kept). As in
Claude Code it is worked out again when something changes — a turn's answer (each prompt), the
permission mode (Shift-Tab), `refreshInterval` seconds — in a thread, never per key: the
toolbar shows the last result and is redrawn when a new one arrives."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

from my_agent.capped import read_capped_text
from ui.words import N_

STATUS_TIMEOUT = 2.0  # seconds the statusLine command may take
MAX_ROWS = 4  # lines of its output shown


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
    from core.agent import breakdown

    agent, workspace = repl.agent, str(repl.agent.tool_context.workspace)
    transcript = repl.session.transcript
    window = agent.context.window_tokens or agent.client.provider.profile.context_window
    tokens = sum(n for _, n in breakdown(agent)) if agent.history else 0
    used = round(100 * tokens / window) if window else 0
    return {
        "hook_event_name": "Status",
        "session_id": agent.tool_context.session_id,
        "transcript_path": str(transcript.path) if transcript is not None else "",
        "cwd": workspace,
        "model": {"id": agent.client.model, "display_name": agent.client.model},
        "workspace": {
            "current_dir": workspace,
            "project_dir": workspace,
            "added_dirs": [str(d) for d in getattr(repl.opts, "add_dirs", ()) or ()],
        },
        "output_style": {"name": "default"},
        "cost": {"total_cost_usd": cost or 0.0},
        "context_window": {
            "total_input_tokens": tokens,
            "context_window_size": window or 0,
            "used_percentage": used,
            "remaining_percentage": 100 - used,
        },
    }


def status_text(repl: Any) -> str:
    """The rows to show now ("" while the session is not open): the command's output (up to
    MAX_ROWS lines, `padding` spaces before each), or the built-in line."""
    if repl.live is None:
        return ""
    from core.agent import status_line_command

    workspace = repl.agent.tool_context.workspace
    entry = status_line_command(workspace, repl.home)
    line = built_in(repl)
    if not entry:
        return line
    from ui.subcommands import session_totals

    cost = session_totals(repl.agent.tool_context.session_id).cost_usd
    size = shutil.get_terminal_size()
    env = {**os.environ, "COLUMNS": str(size.columns), "LINES": str(size.lines)}
    try:
        done = subprocess.run(
            str(entry["command"]),
            shell=True,
            input=json.dumps(claude_input(repl, cost)),
            capture_output=True,
            text=True,
            timeout=STATUS_TIMEOUT,
            cwd=workspace,
            env=env,
        )
    except (OSError, subprocess.TimeoutExpired):
        return line
    rows = [r for r in done.stdout.rstrip("\n").splitlines()][:MAX_ROWS]
    if done.returncode != 0 or not any(r.strip() for r in rows):
        return line
    pad = " " * _count(entry.get("padding"), 0)
    return "\n".join(pad + r for r in rows)


def refresh_every(repl: Any) -> float:
    """`statusLine.refreshInterval` seconds (at least 1), or 0: only on events."""
    from core.agent import status_line_command

    entry = status_line_command(repl.opts.workspace.expanduser().resolve(), repl.home) or {}
    seconds = _count(entry.get("refreshInterval"), 0)
    return max(1.0, float(seconds)) if seconds else 0.0


def _count(value: Any, default: int) -> int:
    ok = isinstance(value, int | float) and not isinstance(value, bool) and value >= 0
    return int(value) if ok else default
