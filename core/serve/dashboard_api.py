"""/dashboard: the usage report as a page of Plotly charts; plotly.js is served from here."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query
from fastapi.responses import FileResponse, HTMLResponse

from core.dashboard import PLOTLY_JS, UsageReport, build_report, render_html
from core.ledger import Filter, parse_limits
from core.serve.services import Services, project_folder, services
from my_agent.home import read_user_config

router = APIRouter(tags=["dashboard"])
Svc = Annotated[Services, Depends(services)]
Days = Annotated[int | None, Query(ge=1, le=3660, description="only the last N days")]
User = Annotated[str | None, Query(max_length=200, description="only this user's use")]


def usage_report(
    svc: Services, project: str | None, days: int | None, user: str | None = None
) -> UsageReport:
    since = time.time() - days * 86400 if days else None
    flt = Filter(
        since_ts=since,
        project=svc.project(project_folder(project, must_exist=False)) if project else None,
        user=user,
    )
    with svc.reports() as db:
        return build_report(db, flt, parse_limits(read_user_config()), svc.task_text)


@router.get("/dashboard", response_class=HTMLResponse, summary="Usage dashboard (HTML)")
def dashboard(
    svc: Svc, project: str | None = None, days: Days = None, user: User = None
) -> HTMLResponse:
    """`user=NAME`: that person's use only (the team ledger)."""
    report = usage_report(svc, project, days, user)
    page = render_html(report, plotly_src="/assets/plotly.min.js")
    return HTMLResponse(page, headers={"cache-control": "no-store"})


@router.get("/dashboard/data", summary="The dashboard's numbers as JSON")
def dashboard_data(
    svc: Svc, project: str | None = None, days: Days = None, user: User = None
) -> dict[str, Any]:
    return usage_report(svc, project, days, user).to_dict()


@router.get("/assets/plotly.min.js", include_in_schema=False)
def plotly_js() -> FileResponse:
    if not PLOTLY_JS.is_file():
        raise HTTPException(404, "plotly is not installed (pip install plotly)")
    return FileResponse(PLOTLY_JS, media_type="application/javascript")
