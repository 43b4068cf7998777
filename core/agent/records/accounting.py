"""Puts the ledger and the budgets into a session: a row per response, limits before each call."""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from core.agent.events import AgentHooks, TaskResult
from core.agent.records.team import SpendToday, open_ledger_for
from core.ledger import (
    BudgetGuard,
    Ledger,
    LedgerRow,
    PriceTable,
    TaskStop,
    Warn,
    day_spend,
    ledger_path,
    load_prices,
    local_day,
    open_ledger,
    parse_limits,
)
from core.model import price_mode
from my_agent.home import project_id, read_user_config
from my_agent.messages import (
    Message,
    ModelResponse,
    ReasoningDelta,
    StreamEvent,
    TextDelta,
    ToolCallDelta,
    Usage,
)
from my_agent.secrets import redact
from my_agent.team import team_project
from my_agent.tokens import estimate_tokens

if TYPE_CHECKING:
    from core.agent.options import SessionOptions
    from core.agent.prompts.system import SystemPrompt
    from core.model import ResolvedProvider


@dataclass
class _Pending:
    """A request under way: what streamed so far, for an estimate if it never completes."""

    started: float
    streamed: list[str] = field(default_factory=list)


class LedgerHooks(AgentHooks):
    """Records one ledger row per model response; one user request is one task."""

    def __init__(
        self,
        ledger: Ledger,
        prices: PriceTable,
        session_id: str,
        project: str,
        provider: str,
        model: str,
        request_text: Callable[[], str] | None = None,
        first_task: int = 0,
        secrets: list[str] | None = None,
    ) -> None:
        self.ledger, self.prices = ledger, prices
        self.session_id, self.project, self.provider, self.model = (
            session_id,
            project,
            provider,
            model,
        )
        self.request_text = request_text  # for estimating a cut request
        self.task_id = f"{session_id}/{first_task}"
        self._tasks = first_task  # a resumed session goes on numbering its tasks
        self._text = ""  # what the user typed for the task under way
        self._secrets = secrets or []
        self._pending: _Pending | None = None
        self._measured: tuple[ModelResponse | None, Usage, float | None] = (None, Usage(), None)
        self.on_estimated: Callable[[ModelResponse], None] | None = None  # a cut request's cost
        self.price_mode = "priced"  # core.model.price_mode: priced | local | unknown

    def measure(self, response: ModelResponse) -> tuple[Usage, float | None]:
        """(usage, USD) of one response: the provider's counts, or a local estimate marked
        `estimated` when the provider reported none. Memoized for the hooks that ask next."""
        if self._measured[0] is not response:
            usage = response.usage
            if not (usage.total_input or usage.output):
                usage = self._estimate(
                    response.message.text
                    + "".join(c.name + c.raw_arguments for c in response.message.tool_calls)
                )
            self._measured = (response, usage, self._cost(usage, response.model))
        return self._measured[1], self._measured[2]

    def _cost(self, usage: Usage, model: str) -> float | None:
        """USD: built-in prices only for the provider's own service; the user's own
        pricing.json anywhere; else a local server costs nothing and another host is unknown."""
        own = self.price_mode == "priced"
        cost = self.prices.cost(usage, model, self.model, builtin=own)
        return 0.0 if cost is None and self.price_mode == "local" else cost

    def _estimate(self, output_text: str) -> Usage:
        prompt = self.request_text() if self.request_text else ""
        return Usage(
            input=estimate_tokens(prompt) if prompt else 0,
            output=estimate_tokens(output_text) if output_text else 0,
            estimated=True,
        )

    def on_task_start(self, task: str) -> None:
        """`task` is what the user typed (the agent's label); it is kept with the task now,
        so a task cut off by a killed process still says what it was."""
        self._tasks += 1
        self.task_id = f"{self.session_id}/{self._tasks}"
        self._text = redact(task, self._secrets)
        self.ledger.record(self._stop(""))

    def before_request(self, turn: int) -> None:
        self._pending = _Pending(time.monotonic())

    def on_stream(self, event: StreamEvent) -> None:
        if self._pending is not None:
            if isinstance(event, TextDelta | ReasoningDelta):
                self._pending.streamed.append(event.text)
            elif isinstance(event, ToolCallDelta):
                self._pending.streamed.append(event.name)

    def on_response(self, response: ModelResponse) -> None:
        self._pending = None
        self.ledger.record(self._row(response, *self.measure(response)))

    def on_child_end(self, result: TaskResult) -> None:
        self._record_pending()  # the row stays the parent's task; its end is the parent's

    def on_task_end(self, result: TaskResult) -> None:
        self._record_pending()
        self.ledger.record(self._stop(result.stop))

    def _stop(self, stop: str) -> TaskStop:
        return TaskStop(
            time.time(), self.session_id, self.task_id, stop, text=self._text, project=self.project
        )

    def _record_pending(self) -> None:
        """A request under way when the task ended, counted locally; one that failed before
        any output is not recorded (nothing billed)."""
        pending, self._pending = self._pending, None
        if pending is None or not pending.streamed:
            return
        usage = self._estimate("".join(pending.streamed))
        response = ModelResponse(
            Message("assistant"),
            usage,
            "interrupted",
            self.model,
            duration=time.monotonic() - pending.started,
        )
        self.ledger.record(self._row(response, *self.measure(response)))
        if self.on_estimated:
            self.on_estimated(response)  # the budget counts it too

    def _row(self, response: ModelResponse, u: Usage, cost: float | None) -> LedgerRow:
        now = time.time()
        return LedgerRow(
            ts=now,
            day=local_day(now),
            session_id=self.session_id,
            task_id=self.task_id,
            project=self.project,
            provider=self.provider,
            model=response.model or self.model,
            input_tokens=u.input,
            cache_read_tokens=u.cache_read,
            cache_write_tokens=u.cache_write,
            output_tokens=u.output,
            reasoning_tokens=u.reasoning,
            latency_ms=response.duration * 1000,
            ttft_ms=None if response.ttft is None else response.ttft * 1000,
            stop_reason=response.stop_reason,
            cost_usd=cost,
            estimated=u.estimated,
        )


def request_text(prompt: SystemPrompt, history: list[Message]) -> str:
    """Roughly what the next request sends, as text, for a local token estimate."""
    parts = [prompt.text]
    for message in history:
        for block in message.blocks:
            parts.append(
                getattr(block, "text", "")
                or getattr(block, "content", "")
                or json.dumps(getattr(block, "arguments", ""), ensure_ascii=False)
            )
    return "\n".join(parts)


def _other_sessions_today(
    path: Path, session_id: str, warn: Warn | None
) -> Callable[[str], tuple[float, int]]:
    def read(day: str) -> tuple[float, int]:
        try:
            db = open_ledger(path, warn)
            if db is None:
                return 0.0, 0
            try:
                return day_spend(db, day, exclude_session=session_id)
            finally:
                db.close()
        except sqlite3.Error as exc:  # the day budget counts this session only
            if warn is not None:
                warn(
                    f"cannot read today's spend from {path} ({exc}); the day budget counts "
                    "this session only"
                )
            return 0.0, 0

    return read


def team_spend(
    team: SpendToday, session_id: str, project: str
) -> Callable[[str, str], tuple[float, int]]:
    """What other sessions spent today, per budget scope, from the team ledger."""
    return lambda scope, day: team(scope, day, session_id, project)


class BudgetHooks(AgentHooks):
    """The budget guard as agent hooks: reset per task, check before each request, count after."""

    def __init__(self, guard: BudgetGuard) -> None:
        self.guard = guard

    def on_task_start(self, task: str) -> None:
        self.guard.on_task_start(task)

    def before_request(self, turn: int) -> None:
        self.guard.before_request(turn)

    def on_response(self, response: ModelResponse) -> None:
        self.guard.on_response(response)


@dataclass
class Accounting:
    ledger: Ledger
    recorder: LedgerHooks
    guard: BudgetGuard

    def hooks(self) -> list[AgentHooks]:
        """The recorder, then the budget guard."""
        return [self.recorder, BudgetHooks(self.guard)]


def setup_accounting(
    opts: SessionOptions,
    provider: ResolvedProvider,
    workspace: Path,
    home: Path,
    ui: AgentHooks,
    warn: Warn | None = None,
    request_text: Callable[[], str] | None = None,
    team_url: str = "",
    *,
    first_task: int = 0,
    secrets: list[str] | None = None,
) -> Accounting:
    """Ledger writer, recorder and budget guard for one session; budget warnings go to `ui`,
    ledger trouble (damaged or unwritable file, team database unreachable) to `warn`;
    `request_text` is what the next request sends, for estimating a request cut short;
    `first_task` how many tasks a resumed session already had (numbering goes on from there);
    `secrets` the values redacted from the typed tasks the ledger keeps."""
    prices = load_prices(home)
    limits = parse_limits(
        read_user_config(), opts.budget_usd, opts.budget_tokens, opts.budget_scope
    )
    ledger, team = open_ledger_for(ledger_path(home), team_url, warn or (lambda text: None))
    project = team_project(workspace) if team else project_id(workspace)
    recorder = LedgerHooks(
        ledger,
        prices,
        opts.session_id,
        project,
        provider.profile.name,
        provider.model,
        request_text,
        first_task,
        secrets,
    )
    guard = BudgetGuard(
        limits,
        recorder.measure,
        ui.on_budget_warning,
        _other_sessions_today(ledger.path, opts.session_id, warn),
        team_spend(team, opts.session_id, project) if team else None,
    )
    recorder.on_estimated = guard.on_response
    recorder.price_mode = price_mode(provider)
    return Accounting(ledger, recorder, guard)
