"""The repository overview for the system prompt: ranked files and symbols within a budget."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from core.agent.events import AgentHooks
from core.codemap import render_overview
from my_agent.errors import Interrupted
from my_agent.messages import PromptSection

if TYPE_CHECKING:
    from core.agent.loop import Agent
    from core.codemap import CodeMap
    from tools.base import ToolContext


def overview_section(
    workspace: Path, task_hint: str = "", budget_tokens: int = 1000, home: Path | None = None
) -> PromptSection:
    """Build (or refresh) the project's index and render the overview as a prompt section."""
    from core.codemap import CodeMap
    from my_agent.home import unicum_home

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
    from core.agent.events import HookList
    from core.codemap import CodeMap

    code_map = ctx.services.get("codemap") or CodeMap(workspace, ctx.home)
    ctx.services["codemap"] = code_map
    code_map.start_background(workers=1)
    hook = OverviewOnFirstTask(agent, code_map, rebuild, budget_tokens)
    agent.hooks = HookList([hook, agent.hooks])
    return code_map
