"""Context: what each request carries (policy, cache-aware compaction, summary, phases, archive)."""

from core.context.archive import Archive, archive_path, shows_archived
from core.context.budget import ContextBudget, session_budget
from core.context.cache_policy import CacheAwareContext
from core.context.compaction import L0_HEADER, big_args, render_l0
from core.context.lines import LineRules
from core.context.masking import CONTEXT_POLICIES, ObservationMasking, context_policy
from core.context.phases import PhaseTracker, TaskPhase
from core.context.policy import Calibration, ContextPolicy, FullHistory
from core.context.state import restore as restore_policy
from core.context.state import snapshot as policy_snapshot
from core.context.summary import SUMMARY_SYSTEM, summarize_history

__all__ = [
    "Archive",
    "CONTEXT_POLICIES",
    "Calibration",
    "CacheAwareContext",
    "ContextBudget",
    "ContextPolicy",
    "FullHistory",
    "L0_HEADER",
    "LineRules",
    "ObservationMasking",
    "PhaseTracker",
    "SUMMARY_SYSTEM",
    "TaskPhase",
    "archive_path",
    "big_args",
    "context_policy",
    "policy_snapshot",
    "restore_policy",
    "render_l0",
    "session_budget",
    "shows_archived",
    "summarize_history",
]
