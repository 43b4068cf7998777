"""The usage dashboard: the ledger's numbers as a report, and that report as a Plotly page."""

from core.dashboard.data import BudgetStatus, TaskText, UsageReport, budget_status, build_report
from core.dashboard.page import PLOTLY_JS, figures, render_html

__all__ = [
    "PLOTLY_JS",
    "BudgetStatus",
    "TaskText",
    "UsageReport",
    "budget_status",
    "build_report",
    "figures",
    "render_html",
]
