"""The REPL's other questions in the approvals' style: the question stays on the screen, one key
answers it (no Enter), and the answer is written after it — so a typed key never becomes part
of the next command."""

from __future__ import annotations

from collections.abc import Callable

from ui.terminal import styled
from ui.views.approval import read_key
from ui.words import Strings

PICK_KEYS = "123456789"  # a picker lists at most this many entries


def yes_no(s: Strings, question: str, write: Callable[[str], None], key=read_key) -> bool:
    """y or n (Enter, Esc, Ctrl-D: n)."""
    write(styled(question, "bold yellow"))
    answer = key(s.t("[y] yes · [n] no "), ("y", "n"), enter="n")
    write(styled(s.t("→ yes") if answer == "y" else s.t("→ no"), "dim"))
    return answer == "y"


def pick_one(
    s: Strings, question: str, count: int, write: Callable[[str], None], key=read_key
) -> int | None:
    """The number (1 to `count`, at most 9) of an entry listed above, or None (Enter, Esc)."""
    count = min(count, len(PICK_KEYS))
    write(styled(question, "bold yellow"))
    keys = tuple(PICK_KEYS[:count])
    answer = key(s.t("[1–{n}] pick · [Enter] cancel ", n=count), keys, enter="cancel")
    picked = int(answer) if answer in keys else None
    write(styled(s.t("→ {n}", n=picked) if picked else s.t("→ cancelled"), "dim"))
    return picked


def one_of(
    s: Strings,
    question: str,
    choices: dict[str, str],
    write: Callable[[str], None],
    enter: str = "",
    key=read_key,
) -> str:
    """One of `choices` (key → words in the UI language, listed in the prompt); Esc and Ctrl-D:
    "" (none), unless "n" is a choice."""
    write(styled(question, "bold yellow"))
    shown = " · ".join(f"[{k}] {words}" for k, words in choices.items())
    answer = key(shown + " ", tuple(choices), enter=enter)
    answer = answer if answer in choices else ""
    write(styled(f"→ {choices[answer]}" if answer else s.t("→ cancelled"), "dim"))
    return answer
