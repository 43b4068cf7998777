"""/ledger: record a request made by any agent, reports by day/task/session/model, budgets."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Depends, Query, Response

from core.dashboard import budget_status
from core.ledger import (
    Filter,
    LedgerRow,
    grouped,
    local_day,
    parse_limits,
    totals,
)
from core.serve.schemas import BudgetOut, BudgetReport, By, LedgerRecorded, LedgerReport
from core.serve.schemas import LedgerRequest as RequestIn
from core.serve.services import Services, project_folder, services
from my_agent.home import read_user_config
from my_agent.messages import Usage

router = APIRouter(prefix="/ledger", tags=["ledger"])
Svc = Annotated[Services, Depends(services)]
DAY = r"^\d{4}-\d{2}-\d{2}$"


@router.post("/requests", response_model=LedgerRecorded, status_code=201, summary="Record one")
def record(svc: Svc, body: RequestIn, response: Response) -> LedgerRecorded:
    """Written before the answer, so a report right after sees it. 202 with `recorded` false:
    the ledger file cannot be written now; the row is kept and retried (do not send it again)."""
    ts = body.ts or time.time()
    usage = Usage(
        body.input_tokens,
        body.cache_read_tokens,
        body.cache_write_tokens,
        body.output_tokens,
        body.reasoning_tokens,
    )
    cost = body.cost_usd if body.cost_usd is not None else svc.prices.cost(usage, body.model)
    row = LedgerRow(
        ts=ts,
        day=local_day(ts),
        session_id=body.session_id,
        task_id=body.task_id,
        project=svc.project(project_folder(body.project, must_exist=False)),
        provider=body.provider,
        model=body.model,
        input_tokens=body.input_tokens,
        cache_read_tokens=body.cache_read_tokens,
        cache_write_tokens=body.cache_write_tokens,
        output_tokens=body.output_tokens,
        reasoning_tokens=body.reasoning_tokens,
        latency_ms=body.latency_ms,
        ttft_ms=body.ttft_ms,
        stop_reason=body.stop_reason,
        cost_usd=cost,
        estimated=body.estimated,
    )
    failures = svc.ledger.failures
    svc.ledger.record(row)
    # 0 rows and no new failure: the background flusher wrote it first
    written = svc.ledger.flush() > 0 or svc.ledger.failures == failures
    if not written:
        response.status_code = 202
    return LedgerRecorded(recorded=written, day=row.day, project=row.project, cost_usd=cost)


@router.get("/report", response_model=LedgerReport, summary="Totals grouped by one key")
def report(
    svc: Svc,
    by: By = "day",
    project: str | None = None,
    session_id: Annotated[str | None, Query(max_length=200)] = None,
    since_ts: Annotated[float | None, Query(ge=0, description="Unix time")] = None,
    from_day: Annotated[str | None, Query(pattern=DAY)] = None,
    user: Annotated[str | None, Query(max_length=200)] = None,
) -> LedgerReport:
    """`by=user` and `user=NAME` read the team ledger's users (a local ledger has one)."""
    flt = Filter(
        since_ts=since_ts,
        project=svc.project(project_folder(project, must_exist=False)) if project else None,
        session_id=session_id,
        from_day=from_day,
        user=user,
    )
    with svc.reports() as db:
        if db is None:
            return LedgerReport(by=by, groups=[], totals={})
        groups = [g.to_dict() for g in grouped(db, by, flt)]
        return LedgerReport(by=by, groups=groups, totals=totals(db, flt).to_dict())


@router.get("/budget", response_model=BudgetReport, summary="Budgets from config.json, as used")
def budget(
    svc: Svc,
    session_id: Annotated[str | None, Query(max_length=200)] = None,
    task_id: Annotated[str | None, Query(max_length=200)] = None,
) -> BudgetReport:
    limits = parse_limits(read_user_config())
    now = time.time()
    with svc.reports() as db:
        found = budget_status(db, limits, now, session_id, task_id)
    return BudgetReport(day=local_day(now), budgets=[BudgetOut(**b.to_dict()) for b in found])
