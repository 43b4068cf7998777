"""Session options and the cheap checks made before a session opens (kept light to import:
the REPL reads them before its prompt appears)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from my_agent.errors import UnicumError

MAX_TURNS = 50  # model turns a task may take before it stops without a final answer


@dataclass
class SessionOptions:
    workspace: Path
    provider: str | None = None
    model: str | None = None
    permission_mode: str = "ask"
    yes: bool = False
    max_turns: int = MAX_TURNS
    budget_usd: float | None = None  # --budget-usd, for `budget_scope`
    budget_tokens: int | None = None  # --budget-tokens
    budget_scope: str = "session"  # task | session | day
    task_hint: str = ""  # the first task, when known: ranks memory for the prompt
    sandbox: str | None = None  # --sandbox: workspace-write | read-only | off (None: config)
    sandbox_network: str | None = None  # --sandbox-network on | off (None: config, else on)
    codemap: bool = True  # the code map (index built in the background, code_map tool)
    overview_in_prompt: bool = False  # its overview in the system prompt (else on demand)
    trusted: bool = False  # --trust; a folder remembered as trusted is trusted either way
    append_system_prompt: str = ""  # --append-system-prompt: added after the instructions
    allowed_tools: tuple[str, ...] = ()  # --allowedTools: rules that run without asking
    disallowed_tools: tuple[str, ...] = ()  # --disallowedTools: names taken out, rules denied
    mcp_config: tuple[str, ...] = ()  # --mcp-config: files or JSON texts with mcpServers
    strict_mcp: bool = False  # --strict-mcp-config: only those servers
    add_dirs: tuple[Path, ...] = ()  # --add-dir: more folders the tools may read and write
    tools: tuple[str, ...] | None = None  # --tools: the tools offered (None: the default set)
    interactive: bool = True  # False in `-p`: nobody answers a clarify question
    context_policy: str = "ours"  # ours | masking | full (`--context-policy`)
    auto_commit: bool = False  # --auto-commit: each turn's changes become the agent's commit
    session_id: str = field(default_factory=lambda: new_session_id())


def new_session_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + "-" + os.urandom(3).hex()


def check_workspace(path: Path) -> Path:
    folder = path.expanduser().resolve()
    if not folder.is_dir():
        raise UnicumError(f"--dir {path}: not a folder")
    return folder
