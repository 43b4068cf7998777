"""How much a request may carry and what the default policy's rewrites are allowed to do."""

from __future__ import annotations

import json
from dataclasses import dataclass

from core.context.early import EARLY_KINDS, KEEP_UP_TO, EarlyRules
from core.context.lines import LineRules
from core.model import ProviderProfile
from my_agent.tokens import estimate_tokens


@dataclass
class ContextBudget:
    window_tokens: int = 128_000
    overhead_tokens: int = 0  # system prompt + tool schemas, counted by the session
    batch_tokens: int = 0  # overrides the phase's batch size (uncompacted output firing an event)
    summary_ratio: float = 0.8  # share of the window above which the LLM summary runs
    reserve_tokens: int = 16_000  # always left free: the reply, or the summary request's output
    arg_chars: int = 300  # longer string arguments (file contents written) are archived
    early_args: str = "all"  # archived from the next request on: "all", "writes" or "" (events)
    early_kinds: tuple[str, ...] = EARLY_KINDS  # outputs that become facts once a newer follows
    early_age: int = 1  # ... that many results later
    early_keep_failures: bool = True  # ... except failures
    early_keep_up_to: tuple[tuple[str, int], ...] = KEEP_UP_TO  # ... except shorter ones
    early_superseded: bool = True  # an output whose call ran again: its line, when it pays
    early_notes: bool = True  # the model's older notes shorten (old_text_chars) when it pays
    early_lines: LineRules | None = LineRules()  # ... outputs keep only the lines later used
    shape_outputs: bool = True  # known programs' output shaped at first show (shaping.py)
    whole_reads: int = 0  # ... but a file read stays whole up to this many tokens
    read_named: int = 40  # ... a large one keeps this many lines naming the model's latest words
    small_result_tokens: int = 500  # results this small stay as they are
    small_for_results: int = 20  # ... while among this many latest results (0: always)
    keep_tools: tuple[str, ...] = ("Task", "task", "delegate")  # sub-agent reports stay whole
    event_lines: tuple[str, ...] = ("read",)  # ... keep the lines named since at events, if it pays
    hot_read_tokens: int = 4_000  # latest reads of files, newest first, kept whole up to this
    old_text_chars: int = 100  # the model's own older texts shorten to this at events (0: whole)
    batch_results: int = 4  # results not yet archived (tail included) an event waits for
    min_gain: float = 1.0  # an event must save at least the tokens it re-sends uncached
    keep_recent_tokens: int = 0  # overrides the phase's verbatim tail (0: the phase's)
    cache_read: float = 0.1  # price of cached input, relative to fresh (break-even of events)
    cache_write: float = 1.25  # price of input re-sent past the cached prefix

    def early_rules(self) -> EarlyRules:
        """What the decisions taken after one turn may do (core/context/early.py)."""
        return EarlyRules(
            kinds=self.early_kinds,
            age=self.early_age,
            keep_up_to=self.early_keep_up_to,
            keep_failures=self.early_keep_failures,
            superseded=self.early_superseded,
            note_chars=self.old_text_chars if self.early_notes else 0,
            lines=self.early_lines,
            keep_tools=self.keep_tools,
        )


def session_budget(
    profile: ProviderProfile, system_prompt: str, tool_specs: list[dict]
) -> ContextBudget:
    """The default budget for a session: the model's window, room for the reply, and the
    prompt and tool schemas every request carries."""
    overhead = estimate_tokens(system_prompt) + estimate_tokens(json.dumps(tool_specs))
    window = profile.context_window
    reserve = min(profile.max_output, window // 4) + 1_000  # the reply always has room
    return ContextBudget(window_tokens=window, reserve_tokens=reserve, overhead_tokens=overhead)
