"""Plan mode in the REPL: read-only tools until the person approves the model's plan (one key),
then the plan runs with the session's own permission mode. `/plan`, Shift-Tab, or
`--permission-mode plan` turn it on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ui.terminal import styled
from ui.words import N_

if TYPE_CHECKING:
    from core.agent import TaskResult

PLAN_NOTE = (
    "\n\n[Plan mode: only read-only tools run. Look at what you need, then reply with a short "
    "numbered plan; nothing is changed until the user approves it.]"
)
GO = "The user approved the plan. Carry it out now."


def base_mode(repl: Any) -> str:
    """The mode an approved plan runs in."""
    mode = repl.opts.permission_mode
    return "ask" if mode == "plan" else mode


def apply_mode(repl: Any) -> None:
    """The tools' permission mode follows the REPL's plan switch."""
    repl.agent.tool_context.permission_mode = "plan" if repl.plan else base_mode(repl)


MODE_PROMPTS = {  # the mode at the prompt (the default, ask, shows none)
    "plan": N_("plan · {prompt}"),
    "auto-edit": N_("accept edits · {prompt}"),
    "yolo": N_("bypass permissions · {prompt}"),
}


def current_mode(repl: Any) -> str:
    return "plan" if repl.plan else repl.opts.permission_mode


def prompt_text(repl: Any, prompt: str) -> str:
    key = MODE_PROMPTS.get(current_mode(repl))
    return repl.s.t(key, prompt=prompt) if key else prompt


def cycle_mode(repl: Any) -> None:
    """Shift-Tab, as in Claude Code: default → accept edits → plan → default (→ bypass
    permissions too, when the session started in it); live, the prompt shows the mode. An
    approved plan runs in the default mode."""
    order = ["ask", "auto-edit", "plan", *(["yolo"] if repl.cycle_bypass else [])]
    now = current_mode(repl)
    after = order[(order.index(now) + 1) % len(order)] if now in order else "ask"
    repl.plan = after == "plan"
    repl.opts.permission_mode = "ask" if repl.plan else after
    if repl.live is not None:
        apply_mode(repl)  # a running session's tools follow at once


def toggle(repl: Any, announce: bool = True) -> None:
    repl.plan = not repl.plan
    if announce:
        repl.say(
            repl.s.t(
                "plan mode on: read-only tools until you approve the plan (Shift-Tab or /plan: off)"
            )
            if repl.plan
            else repl.s.t("plan mode off"),
            style="cyan",
        )


def run_task(repl: Any, text: str, label: str = "") -> None:
    """A typed task: planned first in the plan mode."""
    run_planned(repl, text, label) if repl.plan else repl.execute_task(text, label)


def run_planned(repl: Any, text: str, label: str = "") -> TaskResult | None:
    """The task as a plan; on 'y' the plan runs right away, on 'n' planning goes on. Both
    tasks are named by what the user typed."""
    from ui.views import read_key

    label = label or text
    result = repl.execute_task(text + PLAN_NOTE, label)
    if result is None or result.stop != "done":
        return result
    answer = read_key(
        styled(repl.s.t("Run this plan? [y] yes · [n] no, keep planning "), "bold yellow"),
        ("y", "n"),
    )
    if answer != "y":
        repl.say(repl.s.t("→ not run; still in plan mode: say what to change"), style="dim")
        return result
    repl.say(repl.s.t("→ plan approved; running it"), style="dim")
    repl.plan = False
    return repl.execute_task(GO, label)


def cmd_plan(repl: Any, arg: str) -> None:
    """`/plan`: on/off; `/plan TASK`: plan mode on, and plan TASK."""
    if not arg:
        toggle(repl)
        return
    if not repl.plan:
        toggle(repl)
    run_task(repl, arg)
