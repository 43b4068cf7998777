"""REPL side of budgets: when a limit stops a task, ask whether to extend it and by how much."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from rich.text import Text

from core.agent import Agent, TaskResult
from core.ledger import describe
from my_agent.errors import BudgetExceeded
from my_agent.messages import ImageBlock
from ui.words import SCOPE_WORDS, Strings

_AMOUNT = re.compile(r"^\$?\s*(\d+(?:\.\d*)?|\.\d+)\s*([km]?)$", re.IGNORECASE)
_NO = {"n", "no", "q", "quit", "stop"}


def parse_amount(text: str, metric: str) -> float | None:
    """`0.50`, `$2`, `50k`, `1.5m` → a positive number; anything else → None."""
    match = _AMOUNT.match(text.strip().replace(",", ""))
    if not match:
        return None
    value = float(match.group(1)) * {"": 1, "k": 1e3, "m": 1e6}[match.group(2).lower()]
    if metric == "tokens":
        value = float(int(value))
    return value if value > 0 else None


def ask_extension(
    console, ask: Callable[[str], str], stop: BudgetExceeded, s: Strings, key=None
) -> float | None:
    """Show why the task stopped, then one key: extend by the limit again, another amount
    (typed), or stop (None)."""
    from ui.views import one_of, read_key

    console.print()
    console.print(Text(s.line(str(stop)), style="yellow"))
    example = describe(stop.metric, stop.limit)
    question = s.t("Extend the {scope} budget?", scope=s.t(SCOPE_WORDS[stop.scope]))
    choices = {
        "y": s.t("by {amount}", amount=example),
        "o": s.t("another amount"),
        "n": s.t("stop here (Enter)"),
    }
    try:
        picked = one_of(s, question, choices, print, enter="n", key=key or read_key)
    except KeyboardInterrupt:
        return None
    if picked == "y":
        return stop.limit
    return _typed_amount(console, ask, stop, s) if picked == "o" else None


def _typed_amount(console, ask: Callable[[str], str], stop: BudgetExceeded, s: Strings):
    example = describe(stop.metric, stop.limit).replace(" tokens", "")
    question = s.t("how much? (e.g. {example}; Enter = stop) ", example=example)
    while True:
        try:
            answer = ask(question).strip()
        except (EOFError, KeyboardInterrupt):
            return None
        if not answer or answer.lower() in _NO:
            return None
        amount = parse_amount(answer, stop.metric)
        if amount is not None:
            return amount
        console.print(
            Text(
                s.t("not an amount: {answer!r} (try {example})", answer=answer, example=example),
                style="red",
            )
        )


def run_with_budget(
    agent: Agent,
    task: str,
    console,
    ask: Callable[[str], str],
    s: Strings,
    images: Sequence[ImageBlock] = (),
    label: str = "",
) -> TaskResult | None:
    """Run `task`; each time a budget stops it, offer to extend and resume the same task.
    None when the user declines (the task stays in the history; asking again continues it)."""
    try:
        return agent.run(task, images, label)
    except BudgetExceeded as exc:
        stop = exc
    while True:
        amount = ask_extension(console, ask, stop, s)
        if amount is None:
            console.print(
                Text(s.t("stopped at the budget; no further model call was made"), style="dim")
            )
            return None
        stop.extend(amount)
        console.print(
            Text(
                s.t(
                    "{scope} budget raised by {amount}; continuing",
                    scope=s.t(SCOPE_WORDS[stop.scope]),
                    amount=describe(stop.metric, amount),
                ),
                style="dim",
            )
        )
        try:
            return agent.resume()
        except BudgetExceeded as exc:
            stop = exc
