"""Plan mode in the REPL: read-only tools until the person approves the model's plan (one key),
then the plan runs with the session's own permission mode. `/plan`, Shift-Tab, or
`--permission-mode plan` turn it on."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ui.terminal import styled

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


def prompt_text(repl: Any, prompt: str) -> str:
    return repl.s.t("plan · {prompt}", prompt=prompt) if repl.plan else prompt


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
