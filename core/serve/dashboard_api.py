"""/dashboard: the usage report as a page of Plotly charts; plotly.js is served from here."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query
from fastapi.responses import FileResponse, HTMLResponse

from core.dashboard import PLOTLY_JS, UsageReport, build_report, render_html
from core.ledger import Filter, open_ledger, parse_limits
from core.serve.services import Services, project_folder, services
from my_agent.home import project_id, read_user_config

router = APIRouter(tags=["dashboard"])
Svc = Annotated[Services, Depends(services)]
Days = Annotated[int | None, Query(ge=1, le=3660, description="only the last N days")]


def usage_report(svc: Services, project: str | None, days: int | None) -> UsageReport:
    since = time.time() - days * 86400 if days else None
    flt = Filter(
        since_ts=since,
        project=project_id(project_folder(project, must_exist=False)) if project else None,
    )
    db = open_ledger(svc.ledger_path)
    try:
        return build_report(db, flt, parse_limits(read_user_config()), svc.task_text)
    finally:
        if db is not None:
            db.close()


@router.get("/dashboard", response_class=HTMLResponse, summary="Usage dashboard (HTML)")
def dashboard(svc: Svc, project: str | None = None, days: Days = None) -> HTMLResponse:
    page = render_html(usage_report(svc, project, days), plotly_src="/assets/plotly.min.js")
    return HTMLResponse(page, headers={"cache-control": "no-store"})


@router.get("/dashboard/data", summary="The dashboard's numbers as JSON")
def dashboard_data(svc: Svc, project: str | None = None, days: Days = None) -> dict[str, Any]:
    return usage_report(svc, project, days).to_dict()


@router.get("/assets/plotly.min.js", include_in_schema=False)
def plotly_js() -> FileResponse:
    if not PLOTLY_JS.is_file():
        raise HTTPException(404, "plotly is not installed (pip install plotly)")
    return FileResponse(PLOTLY_JS, media_type="application/javascript")
