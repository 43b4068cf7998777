"""The repository overview for the system prompt: ranked files and symbols within a budget."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from core.codemap.rank import rank_files_and_symbols
from core.errors import Interrupted
from core.events import AgentHooks
from core.prompts import PromptSection
from core.tokens import estimate_tokens

if TYPE_CHECKING:
    from core.agent import Agent
    from core.codemap.service import CodeMap
    from tools.base import ToolContext

HEADER = (
    "Most-used files and symbols (line numbers; ask the code_map tool for definition, "
    "references, impact or outline instead of reading whole files):"
)
SYMBOLS_PER_FILE = 6


def render_overview(
    db: sqlite3.Connection,
    task_hint: str = "",
    budget_tokens: int = 1000,
    graph: list | None = None,
) -> str:
    """Deterministic for the same index and hint; stops before the token budget is exceeded."""
    files, flows = rank_files_and_symbols(db, task_hint, graph)
    if not files:
        return ""
    paths = dict(db.execute("SELECT id, path FROM files"))
    lines = [HEADER]
    used = estimate_tokens(HEADER)
    for fid, _ in files:
        block = [paths[fid]] + _symbol_lines(db, fid, flows.get(fid, []))
        cost = estimate_tokens("\n".join(block))
        if used + cost > budget_tokens:
            if used + estimate_tokens(block[0]) <= budget_tokens:
                lines.append(block[0])
                used += estimate_tokens(block[0])
            continue
        lines += block
        used += cost
    return "\n".join(lines) if len(lines) > 1 else ""


def _symbol_lines(db: sqlite3.Connection, fid: int, flow: list[tuple[str, float]]) -> list[str]:
    names = [n for n, _ in flow[:SYMBOLS_PER_FILE]]
    if not names:  # nothing points here: show its top-level public definitions
        names = [
            n
            for (n,) in db.execute(
                "SELECT name FROM symbols WHERE file_id=? AND kind != 'import' AND scope='' "
                "AND exported=1 ORDER BY line LIMIT 3",
                (fid,),
            )
        ]
    rows = []
    for name in names:
        row = db.execute(
            "SELECT line, signature, scope FROM symbols WHERE file_id=? AND name=? "
            "AND kind != 'import' ORDER BY line LIMIT 1",
            (fid, name),
        ).fetchone()
        if row:
            line, sig, scope = row
            if scope and f"{name}(" in sig:
                sig = sig.replace(f"{name}(", f"{scope}.{name}(", 1)
            rows.append((line, f"  {line}: {sig}"))
    return list(dict.fromkeys(text for _, text in sorted(rows)))


def overview_section(
    workspace: Path, task_hint: str = "", budget_tokens: int = 1000, home: Path | None = None
) -> PromptSection:
    """Build (or refresh) the project's index and render the overview as a prompt section."""
    from core.codemap.service import CodeMap
    from my_agent.config import unicum_home

    code_map = CodeMap(workspace, home or unicum_home())
    try:
        code_map.refresh()
        return section_from(code_map, task_hint, budget_tokens)
    finally:
        code_map.close()


def section_from(code_map, task_hint: str = "", budget_tokens: int = 1000) -> PromptSection:
    index = code_map.index
    with index.lock:
        text = render_overview(index.db, task_hint, budget_tokens, code_map.graph)
    return PromptSection("code map", text)


class OverviewOnFirstTask(AgentHooks):
    """Puts the overview into the agent's system prompt when the first task starts.

    The index builds in a background thread from session start, so the prompt appears at once;
    the first task waits for the build at most `wait_seconds`, then the prompt is frozen for the
    session (stable across turns, so provider caches keep hitting).
    """

    def __init__(
        self,
        agent: Agent,
        code_map: CodeMap,
        rebuild: Callable[[PromptSection], str],
        budget_tokens: int = 1000,
        wait_seconds: float = 8.0,
    ) -> None:
        self.agent, self.code_map, self.rebuild = agent, code_map, rebuild
        self.budget_tokens, self.wait_seconds = budget_tokens, wait_seconds
        self.section: PromptSection | None = None

    def on_task_start(self, task: str) -> None:
        if self.section is not None:
            return
        self.section = PromptSection("code map", "")
        try:
            ready = self.code_map.wait(self.wait_seconds)
        except KeyboardInterrupt:  # Ctrl-C while waiting: stop this task, keep the session
            raise Interrupted("interrupted while the code map was being built") from None
        if ready and not self.code_map.error:
            try:
                self.section = section_from(self.code_map, task, self.budget_tokens)
            except Exception as exc:  # the overview is a bonus; never fail the task for it
                self.code_map.error = f"{type(exc).__name__}: {exc}"
        if self.section.text:
            self.agent.system_prompt = self.rebuild(self.section)


def attach_overview(
    agent: Agent,
    workspace: Path,
    ctx: ToolContext,
    rebuild: Callable[[PromptSection], str],
    budget_tokens: int = 1000,
) -> CodeMap:
    """Start the background build of the session's map (shared with the tools through
    `ctx.services`), and add the first-task hook that puts the overview in the prompt."""
    from core.codemap.service import CodeMap
    from core.events import HookList

    code_map = ctx.services.get("codemap") or CodeMap(workspace, ctx.home)
    ctx.services["codemap"] = code_map
    code_map.start_background(workers=1)
    hook = OverviewOnFirstTask(agent, code_map, rebuild, budget_tokens)
    agent.hooks = HookList([hook, agent.hooks])
    return code_map
