"""The memory section of the system prompt: top-ranked entries within a token budget."""

from __future__ import annotations

from pathlib import Path

from core.memory.store import MemoryEntry, MemoryStore
from my_agent.messages import PromptSection
from my_agent.tokens import estimate_tokens

BUDGET_TOKENS = 600
CANDIDATES = 40  # ranked entries considered before the budget cuts
# Few and always useful: the user's preferences and the project's commands go first (ranked
# among themselves), so a session that read many files does not push them out.
PINNED_TYPES = ("user", "feedback", "commands")
MAX_PINNED = 12
HEADER = "What earlier sessions learned here (it may be stale; check before relying on it):"
FOOTER = (
    "If an entry is wrong or out of date, correct it with the memory tool "
    "(action=update or remove; key = the entry's text or key)."
)
# Rendering order of the groups; within a group the ranking order holds.
GROUPS = ("user", "feedback", "commands", "conventions", "project", "reference", "notes", "files")


def render_line(entry: MemoryEntry) -> str:
    """One line per entry, whatever the content holds."""
    text = " ".join(str(entry.content).split())
    return f"- [{entry.type}] {text}"


def render_memory(
    entries: list[MemoryEntry], budget: int = BUDGET_TOKENS
) -> tuple[str, list[MemoryEntry]]:
    """Text of the section (header, lines in group order, footer) and the entries it shows."""
    used = estimate_tokens(f"## Memory\n{HEADER}\n{FOOTER}") + 2
    chosen: list[MemoryEntry] = []
    for entry in entries:  # best first: keep taking while the budget allows
        cost = estimate_tokens(render_line(entry)) + 1
        if used + cost > budget:
            continue
        chosen.append(entry)
        used += cost
    if not chosen:
        return "", []
    order = {name: i for i, name in enumerate(GROUPS)}
    chosen.sort(key=lambda e: order.get(e.type, len(GROUPS)))  # stable: rank kept in a group
    lines = [HEADER, *(render_line(e) for e in chosen), FOOTER]
    return "\n".join(lines), chosen


def memory_section(
    workspace: Path,
    task_hint: str = "",
    store: MemoryStore | None = None,
    budget: int = BUDGET_TOKENS,
) -> PromptSection:
    """Rank memory for the task and project; `/new` calls this again to re-inject."""
    if store is None:
        from my_agent.home import unicum_home

        store = MemoryStore(unicum_home(), workspace)
    pairs = store.entries()
    if not pairs:
        return PromptSection("memory", "")
    query = f"{task_hint} {store.workspace.name}"
    entries = [e for _, e in pairs]
    pinned = store.rank([e for e in entries if e.type in PINNED_TYPES], query, k=MAX_PINNED)
    first = {id(e) for e in pinned}
    ranked = pinned + [e for e in store.rank(entries, query, CANDIDATES) if id(e) not in first]
    text, shown = render_memory(ranked, budget)
    scope_of = {id(e): s for s, e in pairs}
    for scope in ("project", "global"):
        scoped = [e.key for e in shown if scope_of[id(e)] == scope]
        try:
            store.count_hits(scope, scoped)
        except OSError:
            pass  # a hit count is not worth failing a session start
    return PromptSection("memory", text)
