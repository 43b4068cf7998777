"""The repository overview for the system prompt: ranked files and symbols within a budget,
joining the prompt when the first task starts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from core.codemap import OVERVIEW_TOKENS, CodeMap, render_overview
from core.context import ContextBudget
from my_agent.errors import Interrupted
from my_agent.home import unicum_home
from my_agent.messages import PromptSection
from my_agent.tokens import estimate_tokens


def overview_section(
    workspace: Path,
    task_hint: str = "",
    budget_tokens: int = OVERVIEW_TOKENS,
    home: Path | None = None,
) -> PromptSection:
    """Build (or refresh) the project's index and render the overview as a prompt section."""
    code_map = CodeMap(workspace, home or unicum_home())
    try:
        code_map.refresh()
        return section_from(code_map, task_hint, budget_tokens)
    finally:
        code_map.close()


def section_from(
    code_map: CodeMap, task_hint: str = "", budget_tokens: int = OVERVIEW_TOKENS
) -> PromptSection:
    index = code_map.index
    with index.lock:
        text = render_overview(index.db, task_hint, budget_tokens, code_map.graph)
    return PromptSection("code map", text)


class PromptWithOverview:
    """The session's system prompt; the overview joins it when the first task starts.

    The index builds in a background thread from session start, so the REPL prompt appears at
    once; the first task waits for the build at most `wait_seconds` (a cold build that is still
    parsing gives the overview of what it ranked first instead), then the prompt is frozen
    for the session (stable across turns, so provider caches keep hitting). The prompt's growth
    is added to the context budget's overhead, which counts the prompt.
    """

    def __init__(
        self,
        text: str,
        code_map: CodeMap,
        rebuild: Callable[[PromptSection], str],
        budget: ContextBudget,
        budget_tokens: int = OVERVIEW_TOKENS,
        wait_seconds: float = 8.0,
    ) -> None:
        self.text, self.code_map, self.rebuild, self.budget = text, code_map, rebuild, budget
        self.budget_tokens, self.wait_seconds = budget_tokens, wait_seconds
        self.section: PromptSection | None = None

    def start_task(self, task: str) -> None:
        if self.section is not None:
            return
        self.section = PromptSection("code map", "")
        try:
            ready = self.code_map.wait_first_part(self.wait_seconds)
        except KeyboardInterrupt:  # Ctrl-C while waiting: stop this task, keep the session
            raise Interrupted("interrupted while the code map was being built") from None
        if ready and not self.code_map.error:
            self.section = self._overview(task)
        if self.section.text:
            prompt = self.rebuild(self.section)
            self.budget.overhead_tokens += estimate_tokens(prompt) - estimate_tokens(self.text)
            self.text = prompt

    def _overview(self, task: str) -> PromptSection:
        if not self.code_map.wait(0):  # a cold build still parsing: its first part's overview
            return PromptSection("code map", self.code_map.early_overview)
        try:
            return section_from(self.code_map, task, self.budget_tokens)
        except Exception as exc:  # the overview is a bonus; never fail the task for it
            self.code_map.error = f"{type(exc).__name__}: {exc}"
            return PromptSection("code map", "")
