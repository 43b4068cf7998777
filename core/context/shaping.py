"""Known programs' output shaped at its first showing, the whole archived for `recall`: test
runs keep failures and the summary, installs and builds their errors and last lines, `git
status` / `git log` their compact forms, long listings their head and tail. Any very large
output keeps its head, its tail and the lines that match the task (the size rule), so a model
that makes few, huge calls is served as well as one making many small ones. An output that
reads like a specification stays whole (up to `SPEC_TOKENS`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from core.context.lines import GUTTER, compose, keeps, reads_like_spec, telling, used_words
from my_agent.facts import Fact
from my_agent.messages import Message, TextBlock

SIZE_TOKENS = 4_000  # outputs larger than this keep head, tail and the lines that matter
SPEC_TOKENS = 12_000  # ... unless they read like a specification, up to this size
MIN_TOKENS = 300  # smaller outputs are shown as they are
HEAD, TAIL = 40, 30  # lines kept by the size rule
NAMED = 40  # a large file read also keeps this many lines naming the model's latest words
RECENT = 2  # the model's latest messages whose identifiers a large read is matched against
_PASSED = re.compile(
    r"(?:\bPASSED\b|^ok\s|^\s*✓|\bok$|^\s*PASS\s|^test \S+ \.\.\. ok$)|^[\w/.-]+\.py [.sx]+\s*(\[\s*\d+%\])?$"
)
_INSTALL = re.compile(
    r"\b(?:pip3?|uv pip|npm|yarn|pnpm|apt(?:-get)?|cargo|poetry|conda|gem|go) "
    r"(?:install|add|ci|sync|get)\b"
)
_GIT_NOISE = re.compile(r"^\s*\(use \"git |^Author: |^Date: |^\s*$")
Count = Callable[[str], int]


def _test_run(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if not _PASSED.search(line.strip())]


def _log(lines: list[str]) -> list[int]:
    """Errors and warnings, and the last lines (where installers and builds say how it went)."""
    return [i for i, line in enumerate(lines) if keeps(line, set())] + list(
        range(max(0, len(lines) - 5), len(lines))
    )


def _git(lines: list[str]) -> list[int]:
    return [i for i, line in enumerate(lines) if not _GIT_NOISE.search(line)]


def _listing(lines: list[str]) -> list[int]:
    return list(range(min(HEAD, len(lines)))) + list(range(max(0, len(lines) - TAIL), len(lines)))


def _program(fact: Fact, command: str) -> Callable[[list[str]], list[int]] | None:
    if fact.kind == "test":
        return _test_run
    if fact.kind == "build" or _INSTALL.search(command):
        return _log
    if fact.kind == "git" and re.search(r"\bgit (?:status|log)\b", command) and "-p" not in command:
        return _git
    if fact.kind == "list" and command:
        return _listing
    return None


def first_show(
    fact: Fact,
    command: str,
    text: str,
    entry: str,
    task: str,
    count: Count,
    whole_reads: int = 0,
    recent: str = "",
    named: int = NAMED,
) -> str:
    """What an output shows the first time: shaped when a known program printed it or when it
    is very large; otherwise itself. Pointers name the lines of the whole (as archived).
    `whole_reads`: a file read (the lines the model asked for) stays whole up to this size;
    `recent`: the model's latest words, whose identifiers a large file read keeps lines of
    (`named` at most)."""
    size = count(text)
    if size < MIN_TOKENS or fact.kind == "recall":  # what the model asked for, as it asked
        return text
    lines = text.split("\n")
    kept = list(range(len(lines)))
    program = _program(fact, command)
    if program is not None:
        chosen = sorted(set(program(lines)) | {0, len(lines) - 1})
        if count(compose(lines, chosen, entry)) < 0.8 * size:
            kept = chosen
            size = count(compose(lines, kept, entry))
    if fact.kind == "read" and size <= whole_reads:
        return text
    if size > SIZE_TOKENS and not (size <= SPEC_TOKENS and reads_like_spec(lines)):
        kept = _head_tail(kept, lines, used_words([task], []))
        if fact.kind == "read":
            named_lines = _landmarks(kept, lines, used_words([recent], []))[:named]
            kept = sorted({*kept, *named_lines})
    return text if len(kept) == len(lines) else compose(lines, kept, entry)


def _head_tail(kept: list[int], lines: list[str], task: set[str]) -> list[int]:
    """The size rule: the first and last of the kept lines, and those in between that matter
    or name the task's identifiers (at most as many again)."""
    head, tail = kept[:HEAD], kept[max(HEAD, len(kept) - TAIL) :]
    middle = [i for i in kept[HEAD : len(kept) - TAIL] if keeps(lines[i], task)]
    return sorted({*head, *middle[: HEAD + TAIL], *tail})


def _landmarks(kept: list[int], lines: list[str], recent: set[str]) -> list[int]:
    """What a large file read keeps beside the size rule's lines: the lines naming what the
    model has just said or asked for (a word on a quarter of the lines picks none out), so a
    later reference to what it was looking for lands on a shown line."""
    shown = set(kept)
    hidden = [i for i in range(len(lines)) if i not in shown]
    text = [GUTTER.sub("", lines[i], count=1) for i in hidden]
    recent = telling(recent, text)
    named = [i for i, row in zip(hidden, text, strict=True) if keeps(row, recent, code=True)]
    return named


class FirstShow:
    """The outputs shaped at their first showing (call id -> text), and the task they are
    matched against."""

    NOT_STATE = ("enabled", "whole_reads", "named")  # settings, not state (state.py)

    def __init__(self, enabled: bool = True, whole_reads: int = 0, named: int = NAMED) -> None:
        self.enabled, self.whole_reads, self.named = enabled, whole_reads, named
        self.task = self.recent = ""
        self.shaped: dict[str, str] = {}

    def note_task(self, history: list[Message]) -> None:
        """The task (the first message), and the model's latest words (its texts and
        arguments in the last `RECENT` of its messages)."""
        if not self.task and history:
            self.task = " ".join(getattr(b, "text", "") for b in history[0].blocks)
        said = [m for m in history if m.role == "assistant"][-RECENT:]
        self.recent = "\n".join(
            [b.text for m in said for b in m.blocks if isinstance(b, TextBlock)]
            + [str(c.arguments) for m in said for c in m.tool_calls]
        )

    def shape(
        self, call_id: str, fact: Fact, command: object, text: str, count: Count, asked: str = ""
    ) -> str:
        """The text to show for a new output (archived whole under `fact.archive_id`);
        `asked`: the call's arguments (a large file read keeps the lines they name too)."""
        if not self.enabled:
            return text
        shown = first_show(
            fact,
            str(command or ""),
            text,
            fact.archive_id,
            self.task,
            count,
            self.whole_reads,
            f"{self.recent}\n{asked}",
            self.named,
        )
        if shown != text:
            self.shaped[call_id] = shown
        return shown
