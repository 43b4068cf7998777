"""Budgets per task, session and day, in USD and tokens, enforced before each model call.

With a team ledger two more scopes count everyone's spend today, checked before every call:
"user" (this user's sessions on any machine) and "project" (every user on this project).

Warnings at 60% and 80% go to a callback the UI renders; at 100% `before_request` raises
`BudgetExceeded`, so the next model call is not made. `BudgetExceeded.extend(amount)` raises the
limit that was hit; the caller may then resume the task.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace

from core.ledger.writer import local_day
from my_agent.errors import BudgetExceeded, ConfigError
from my_agent.messages import ModelResponse, Usage

SCOPES = ("task", "session", "day", "user", "project")
DAILY = ("day", "user", "project")  # scopes that start again each day and count other sessions
METRICS = ("usd", "tokens")
THRESHOLDS = (0.6, 0.8)
FLAG = {"usd": "--budget-usd", "tokens": "--budget-tokens"}


@dataclass
class Limit:
    scope: str
    metric: str
    amount: float
    origin: str  # how the user set it, for the hint: "--budget-usd" or "config.json budget.day.usd"


def describe(metric: str, value: float) -> str:
    if metric == "tokens":
        return f"{int(value):,} tokens"
    return f"${value:,.2f}" if value >= 1 else f"${value:.4f}"


def parse_limits(
    cfg: dict, usd: float | None = None, tokens: int | None = None, scope: str = "session"
) -> list[Limit]:
    """Limits from config.json's `budget` object, then the flags (which win for their scope)."""
    section = cfg.get("budget") or {}
    if not isinstance(section, dict):
        raise ConfigError(
            'config.json: "budget" must be an object like '
            '{"session": {"usd": 1.0, "tokens": 200000}}'
        )
    limits: dict[tuple[str, str], Limit] = {}
    for sc, metrics in section.items():
        if sc not in SCOPES or not isinstance(metrics, dict):
            raise ConfigError(
                f'config.json: budget."{sc}" must be one of {", ".join(SCOPES)} '
                'holding {"usd": N, "tokens": N}'
            )
        for metric, amount in metrics.items():
            number = isinstance(amount, int | float) and not isinstance(amount, bool)
            if metric not in METRICS or not number or amount <= 0:
                raise ConfigError(
                    f'config.json: budget.{sc}."{metric}" must be "usd" or '
                    '"tokens" with a positive number'
                )
            limits[(sc, metric)] = Limit(
                sc, metric, float(amount), f"config.json budget.{sc}.{metric}"
            )
    for metric, amount in (("usd", usd), ("tokens", tokens)):
        if amount is not None:
            origin = FLAG[metric] + (f" --budget-scope {scope}" if scope != "session" else "")
            limits[(scope, metric)] = Limit(scope, metric, float(amount), origin)
    return list(limits.values())


@dataclass
class BudgetWarning:
    """A threshold crossed (`fraction` 0.6 or 0.8), or a USD budget that cannot be priced."""

    scope: str
    metric: str
    fraction: float
    spent: float
    limit: float
    text: str


@dataclass
class Spend:
    usd: float = 0.0
    tokens: int = 0

    def add(self, cost: float | None, usage: Usage) -> None:
        self.usd += cost or 0.0
        self.tokens += usage.total_input + usage.output

    def get(self, metric: str) -> float:
        return self.usd if metric == "usd" else float(self.tokens)


Measure = Callable[[ModelResponse], tuple[Usage, float | None]]  # response -> (usage, USD)


class BudgetGuard:
    """Counts what each response cost and refuses the next request once a limit is reached.

    Its three methods have the agent's hook names; `core.agent.BudgetHooks` plugs it in."""

    def __init__(
        self,
        limits: list[Limit],
        measure: Measure,
        notify: Callable[[BudgetWarning], None],
        other_sessions_today: Callable[[str], tuple[float, int]] | None = None,
        team_spend: Callable[[str, str], tuple[float, int]] | None = None,
    ) -> None:
        self.limits, self.measure, self.notify = limits, measure, notify
        self.other_sessions_today = other_sessions_today  # day -> (USD, tokens) not ours
        # (scope, day) -> (USD, tokens) other sessions spent: the team ledger, read before
        # each request (others spend meanwhile); without it every daily scope counts as "day"
        self.team_spend = team_spend
        self.spent = {scope: Spend() for scope in SCOPES}
        self._day = ""
        self._day_base = {scope: Spend() for scope in DAILY}
        self._warned: set[tuple[str, str, float]] = set()
        self._unpriced_noted = False
        self._last: ModelResponse | None = None  # the last reply: the next request's estimate

    def on_task_start(self, task: str) -> None:
        self.spent["task"] = Spend()
        self._warned = {w for w in self._warned if w[0] != "task"}
        self._roll_day(refresh=True)  # other sessions may have spent since the last task

    def before_request(self, turn: int) -> None:
        """Refuse the request when the limit is reached, or when its estimated cost (see
        `_forecast`) would take the spend past it; warn first at the thresholds it crosses."""
        self._roll_day(refresh=self.team_spend is not None)
        ahead = self._forecast()
        self._warn(ahead)
        for limit, used in self._usage():
            if used >= limit.amount or used + ahead.get(limit.metric) > limit.amount:
                raise self._exceeded(limit, used, ahead.get(limit.metric))

    def _forecast(self) -> Spend:
        """The next request, estimated from the last one: it sends the same input again plus
        the last reply, and answers about as long (nothing before the first reply)."""
        last = self._last
        if last is None:
            return Spend()
        u = last.usage
        guess = Usage(u.input + u.output, u.cache_read, u.cache_write, u.output, estimated=True)
        usage, cost = self.measure(replace(last, usage=guess))
        ahead = Spend()
        ahead.add(cost, usage)
        return ahead

    def on_response(self, response: ModelResponse) -> None:
        self._roll_day()
        usage, cost = self.measure(response)
        if response.purpose == "task":
            self._last = replace(response, usage=usage)
        for scope in SCOPES:
            self.spent[scope].add(cost, usage)
        if (
            cost is None
            and not self._unpriced_noted
            and any(lim.metric == "usd" for lim in self.limits)
        ):
            self._unpriced_noted = True
            self.notify(
                BudgetWarning(
                    "session",
                    "usd",
                    0.0,
                    0.0,
                    0.0,
                    f"no price known for {response.model or 'this model'}: "
                    "USD budgets cannot be enforced (tokens still count)",
                )
            )
        self._warn()

    def extend(self, scope: str, metric: str, amount: float) -> None:
        for limit in self.limits:
            if (limit.scope, limit.metric) == (scope, metric):
                limit.amount += amount
                used = self._used(limit)
                self._warned = {
                    w
                    for w in self._warned
                    if (w[0], w[1]) != (scope, metric) or used >= w[2] * limit.amount
                }

    # --- internals ---------------------------------------------------------------------
    def _used(self, limit: Limit) -> float:
        used = self.spent[limit.scope].get(limit.metric)
        base = self._day_base.get(limit.scope)
        return used + base.get(limit.metric) if base is not None else used

    def _usage(self) -> list[tuple[Limit, float]]:
        return [(limit, self._used(limit)) for limit in self.limits]

    def _warn(self, ahead: Spend | None = None) -> None:
        """Warn at the highest threshold newly crossed by the spend, or (before a request) by
        the spend with the request's estimate: a request that jumps past 80% warns first."""
        for limit, used in self._usage():
            extra = ahead.get(limit.metric) if ahead is not None else 0.0
            crossed = [t for t in THRESHOLDS if limit.amount * t <= used + extra]
            crossed = crossed if used < limit.amount else []
            for t in crossed[-1:]:  # only the highest newly crossed level
                key = (limit.scope, limit.metric, t)
                if key in self._warned:
                    continue
                self._warned.update((limit.scope, limit.metric, x) for x in THRESHOLDS if x <= t)
                self.notify(
                    BudgetWarning(
                        limit.scope,
                        limit.metric,
                        t,
                        used,
                        limit.amount,
                        f"{int(t * 100)}% of the {limit.scope} budget used: "
                        f"{describe(limit.metric, used)} of {describe(limit.metric, limit.amount)}"
                        + _with_next(limit, used, extra, t),
                    )
                )

    def _roll_day(self, refresh: bool = False) -> None:
        daily = {lim.scope for lim in self.limits if lim.scope in DAILY}
        if not daily:
            return
        today = local_day(time.time())
        if today != self._day:
            self._day, refresh = today, True
            for scope in DAILY:
                self.spent[scope] = Spend()
            self._warned = {w for w in self._warned if w[0] not in DAILY}
        if not refresh:
            return
        if self.team_spend is not None:
            for scope in daily:
                self._day_base[scope] = Spend(*self.team_spend(scope, today))
        elif self.other_sessions_today is not None:
            local = self.other_sessions_today(today)  # one user: every daily scope is "day"
            for scope in daily:
                self._day_base[scope] = Spend(*local)

    def _exceeded(self, limit: Limit, used: float, ahead: float = 0.0) -> BudgetExceeded:
        what = {
            "task": "this task",
            "session": "this session",
            "day": "today",
            "user": "today (you, all sessions)",
            "project": "today (the project, all users)",
        }[limit.scope]
        message = (
            f"budget reached: {what} used {describe(limit.metric, used)} of "
            f"{describe(limit.metric, limit.amount)}; the next model call was not made "
            f"(raise it with {limit.origin})"
        )
        if used < limit.amount:
            message = (
                f"budget reached: {what} used {describe(limit.metric, used)} of "
                f"{describe(limit.metric, limit.amount)} and the next model call "
                f"(~{describe(limit.metric, ahead)}) would pass it, so it was not made "
                f"(raise it with {limit.origin})"
            )
        return BudgetExceeded(
            message,
            scope=limit.scope,
            metric=limit.metric,
            limit=limit.amount,
            spent=used,
            extender=lambda amount: self.extend(limit.scope, limit.metric, amount),
        )


def _with_next(limit: Limit, used: float, extra: float, threshold: float) -> str:
    """` (the next model call would make it ~X)` when the estimate, not the spend, crossed."""
    if not extra or used >= limit.amount * threshold:
        return ""
    return f" (the next model call would make it ~{describe(limit.metric, used + extra)})"
