"""Words chosen at run time (a stop reason, a scope, an answer key, a /context part), each marked
for the catalogs here once."""

from __future__ import annotations

import re

from ui.words.catalog import N_

STOP_WORDS = {
    "done": N_("done"),
    "max_turns": N_("max_turns"),
    "repeated": N_("repeated"),
    "budget": N_("budget"),
    "interrupted": N_("interrupted"),
    "error": N_("error"),
}
SCOPE_WORDS = {"task": N_("task"), "session": N_("session"), "day": N_("day")}
APPROVE_WORDS = {
    "y": N_("→ yes, this once"),
    "s": N_("→ yes, for the rest of this session"),
    "a": N_("→ yes, always in this project (saved)"),
    "n": N_("→ no"),
    "e": N_("→ no; tell the model why"),
}
PHASE_WORDS = {
    "planning": N_("planning"),
    "executing": N_("executing"),
    "verifying": N_("verifying"),
}
# the parts of the next request in /context (core.agent's breakdown)
CONTEXT_PARTS = (
    N_("system prompt"),
    N_("memory"),
    N_("instructions"),
    N_("skills"),
    N_("environment"),
    N_("code map"),
    N_("L0 progress"),
    N_("summary"),
    N_("messages"),
    N_("tool schemas"),
)
# core's stop lines → what the person reads
CORE_STOPS = {
    "interrupted; the sub-agent was stopped": N_(
        "interrupted — the sub-agent was stopped; its partial report went to the model"
    ),
    "interrupted; the reply so far was discarded": N_(
        "interrupted — the unfinished reply was discarded"
    ),
    "interrupted; tool calls were stopped": N_("interrupted — the running tool was stopped"),
    "compaction interrupted; nothing was changed": N_(
        "compaction interrupted — nothing was changed"
    ),
    "Ctrl-C": N_("interrupted (Ctrl-C)"),
    "interrupted while the code map was being built": N_(
        "interrupted while the code map was being built"
    ),
}
INTERRUPTED_OTHER = N_("interrupted ({line})")
# retry reasons (core.model.retry, an SDK's class name) → words, with and without the reason
RETRY_REASONS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (re.compile(r"HTTP 429|rate.?limit", re.I), N_("rate limited ({reason})"), N_("rate limited")),
    (
        re.compile(r"HTTP 529|overloaded", re.I),
        N_("the server is overloaded"),
        N_("the server is overloaded"),
    ),
    (
        re.compile(r"HTTP 5\d\d|^api$|server", re.I),
        N_("server error ({reason})"),
        N_("server error"),
    ),
    (
        re.compile(r"HTTP 408|time(d)? ?out", re.I),
        N_("the request timed out"),
        N_("the request timed out"),
    ),
    (
        re.compile(r"refused", re.I),
        N_("the connection was refused"),
        N_("the connection was refused"),
    ),
    (
        re.compile(r"connection|APIConnectionError|Protocol|Read", re.I),
        N_("the connection dropped"),
        N_("the connection dropped"),
    ),
)
# separators inside translated lines
LIST_SEPARATOR = N_("; ")
LABELLED = N_("{label}: {reason}")
