"""What the dashboard shows, read from the ledger: days, tasks, models, totals and budgets."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from core.ledger import Filter, Group, Limit, Totals, day_spend, grouped, local_day, totals

TaskText = Callable[[str], str]  # task id -> the task as the user typed it ("" when unknown)
# (for ledgers from before the ledger kept it with the task: it is read from the transcript)
TOP_TASKS = 10


@dataclass
class BudgetStatus:
    """One limit and how much of it is used; `spent` is None when the scope has no id given."""

    scope: str
    metric: str
    limit: float
    origin: str
    spent: float | None

    @property
    def fraction(self) -> float | None:
        return None if self.spent is None else self.spent / self.limit

    def to_dict(self) -> dict[str, Any]:
        fraction = self.fraction
        return {
            "scope": self.scope,
            "metric": self.metric,
            "limit": self.limit,
            "origin": self.origin,
            "spent": self.spent,
            "fraction": None if fraction is None else round(fraction, 4),
            "exceeded": fraction is not None and fraction >= 1.0,
        }


@dataclass
class UsageReport:
    days: list[Group] = field(default_factory=list)
    top_tasks: list[Group] = field(default_factory=list)  # most expensive first
    models: list[Group] = field(default_factory=list)
    users: list[Group] = field(default_factory=list)  # the team ledger's people (one locally)
    total: Totals = field(default_factory=Totals)
    budgets: list[BudgetStatus] = field(default_factory=list)
    task_text: dict[str, str] = field(default_factory=dict)
    generated: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "generated": self.generated,
            "totals": self.total.to_dict(),
            "days": [g.to_dict() for g in self.days],
            "models": [g.to_dict() for g in self.models],
            "users": [g.to_dict() for g in self.users],
            "top_tasks": [
                {**g.to_dict(), "task": self.task_text.get(g.key, "")} for g in self.top_tasks
            ],
            "budgets": [b.to_dict() for b in self.budgets],
        }


def _cost_then_tokens(group: Group) -> tuple[float, int]:
    return group.totals.cost_usd or 0.0, group.totals.total_tokens


def build_report(
    db: sqlite3.Connection | None,
    flt: Filter | None = None,
    limits: list[Limit] | None = None,
    task_text: TaskText | None = None,
    top: int = TOP_TASKS,
    now: float | None = None,
) -> UsageReport:
    """The whole report in a few grouped queries; `db` None (nothing recorded yet) is empty."""
    now = time.time() if now is None else now
    flt = flt or Filter()
    report = UsageReport(generated=now)
    if db is not None:
        report.days = grouped(db, "day", flt)
        report.models = grouped(db, "model", flt)
        report.users = grouped(db, "user", flt)
        tasks = grouped(db, "task", flt)
        report.top_tasks = sorted(tasks, key=_cost_then_tokens, reverse=True)[:top]
        report.total = totals(db, flt)
    report.task_text = {
        g.key: g.text or (task_text(g.key) if task_text is not None else "")
        for g in report.top_tasks
    }
    report.budgets = budget_status(db, limits or [], now)
    return report


def budget_status(
    db: sqlite3.Connection | None,
    limits: list[Limit],
    now: float | None = None,
    session_id: str | None = None,
    task_id: str | None = None,
) -> list[BudgetStatus]:
    """Each limit with what the ledger says is spent: today for `day`, the given session or task
    for `session` / `task` (spent None when no id is given for that scope)."""
    now = time.time() if now is None else now
    found = []
    for limit in limits:
        spent = _spent(db, limit, local_day(now), session_id, task_id)
        found.append(BudgetStatus(limit.scope, limit.metric, limit.amount, limit.origin, spent))
    return found


def _spent(
    db: sqlite3.Connection | None,
    limit: Limit,
    day: str,
    session_id: str | None,
    task_id: str | None,
) -> float | None:
    if limit.scope == "day":
        usd, tokens = day_spend(db, day) if db is not None else (0.0, 0)
        return usd if limit.metric == "usd" else float(tokens)
    if limit.scope == "session" and session_id is None:
        return None
    if limit.scope == "task" and task_id is None:
        return None
    if db is None:
        return 0.0
    if limit.scope == "session":
        used = totals(db, Filter(session_id=session_id))
    else:
        session = (task_id or "").rpartition("/")[0]
        matches = [g for g in grouped(db, "task", Filter(session_id=session)) if g.key == task_id]
        used = matches[0].totals if matches else Totals()
    return (used.cost_usd or 0.0) if limit.metric == "usd" else float(used.total_tokens)
