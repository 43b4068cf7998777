"""Line-level selection: after its first showing, an output keeps only the lines later steps
use, and each run of the rest becomes one pointer that `recall(id, lines=…)` reads back.

Kept: errors and tracebacks, failing test names, `path:line` locations, summary lines, the
first and last line, and lines naming an identifier the model has used since the output was
shown (in its text or its tool arguments). Decided once per output (core/context/early.py)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

_SIGNAL = re.compile(
    r"Traceback|\w*(?:Error|Exception|Warning)\b|\bFAIL|\bERROR\b|\berror\b|\bwarning\b|"
    r"\bpanic|\bfatal\b|\bassert|^E\s|^>\s|\bnot found\b|No such file|[Dd]enied|\bexpected\b",
)
_LOCATION = re.compile(r"[\w./-]+\.\w+:\d+|File \"[^\"]+\", line \d+|\bline \d+")
_SUMMARY = re.compile(
    r"\b\d+ (?:passed|failed|errors?|skipped|xfailed|warnings?|tests?|files? changed)\b|"
    r"^Ran \d+ tests?|^(?:OK|FAILED|PASSED|SUCCESS)\b|^=+ .* =+$|^-{3,}$|\bexit(?: code)? \d+",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*|\d{2,}")
_CODE_LIKE = re.compile(r"_|[a-z][A-Z]|[A-Za-z]\d|\.")
_PROSE_WORD = re.compile(r"[A-Za-z][a-z]+[,.;:]?")
_MARKDOWN = re.compile(r"^\s*(?:#{1,6} |[-*+] |> |\d+\. |\|)")
GUTTER = re.compile(r"^\s*\d+(?:→|\t|:\s|\|\s)")  # a numbered file view's line numbers
_SKIP = frozenset({"self", "None", "True", "False", "return", "import", "from", "def", "class"})


@dataclass(frozen=True)
class LineRules:
    min_tokens: int = 300  # smaller outputs stay whole
    min_saving: float = 0.4  # the kept lines must save at least this share
    max_kept: int = 80  # lines kept at most (the rest are pointed at)
    gap: int = 2  # dropped runs shorter than this stay whole (a pointer costs as much)
    skip_kinds: tuple[str, ...] = ()  # outputs of these kinds stay whole
    late_kinds: tuple[str, ...] = ("read",)  # outputs of these kinds are judged ...
    late_age: int = 6  # ... only this many turns after they were shown (then at 2x, 4x...)
    late_write: float = 1.15  # the price of re-sending what follows (cached reads: 0.1)
    late_crowd: int = 12_000  # whole late outputs past this many tokens: judged from 2 turns on


def used_words(texts: Iterable[str], arguments: Iterable[str]) -> set[str]:
    """What the model has used since: the code-like identifiers (snake_case, camelCase,
    dotted, with digits; numbers) of its texts and its tool arguments."""
    found: set[str] = set()
    for text in [*texts, *arguments]:
        found |= {w for w in _WORD.findall(text) if _code_like(w)}
    found -= _SKIP
    for word in list(found):  # `pkg.mod.name` also names `name` and `pkg/mod`
        if "." in word:
            found.update(p for p in word.split(".") if len(p) >= 4)
    return found


def _code_like(word: str) -> bool:
    return word.isdigit() or (len(word) > 3 and bool(_CODE_LIKE.search(word)))


def keeps(line: str, used: set[str], code: bool = False) -> bool:
    """A line later steps are likely to use; in a file's text (`code`) an error word is code,
    so only the identifiers used since count."""
    if not line.strip():
        return False
    if not code and (
        _SIGNAL.search(line) or _LOCATION.search(line) or _SUMMARY.search(line.strip())
    ):
        return True
    return any(w in used for w in _WORD.findall(line))


def telling(used: set[str], lines: list[str]) -> set[str]:
    """The used words that pick out lines: one on more than a quarter of them (a package
    name, the project's folder) tells nothing about which."""
    words = [set(_WORD.findall(line)) for line in lines if line.strip()]
    limit = max(3, len(words) // 4)
    counts: dict[str, int] = {}
    for found in words:
        for word in found & used:
            counts[word] = counts.get(word, 0) + 1
    return {w for w, n in counts.items() if n <= limit}


def reads_like_spec(lines: list[str], share: float = 0.4) -> bool:
    """Prose or markdown (a task printed by an issue tracker, a page, a plan; a file view's
    line numbers aside): the model quotes it for the rest of the session, so it stays whole."""
    rows = [GUTTER.sub("", line, count=1) for line in lines]
    rows = [line for line in rows if line.strip()]
    prose = 0
    for line in rows:
        words = line.split()
        plain = sum(bool(_PROSE_WORD.fullmatch(w)) for w in words)
        prose += bool(_MARKDOWN.match(line)) or (len(words) >= 6 and plain >= 0.7 * len(words))
    return bool(rows) and prose >= share * len(rows)


def select(
    text: str,
    entry_id: str,
    used: set[str],
    rules: LineRules,
    count,
    code: bool = False,
    named: bool = False,
) -> str | None:
    """The output with only its kept lines, or None when that does not save enough;
    `code`: the output is a file's text; `named`: None too when no line was kept for what
    it says (its first and last line alone tell less than its fact line)."""
    if count(text) < rules.min_tokens:
        return None
    lines = text.split("\n")
    if reads_like_spec(lines):
        return None
    used = telling(used, lines)
    kept = [i for i, line in enumerate(lines) if keeps(line, used, code)]
    if named and not kept:
        return None
    kept = sorted({0, len(lines) - 1, *kept[: rules.max_kept]})
    shown = compose(lines, kept, entry_id, rules.gap)
    if count(shown) > (1 - rules.min_saving) * count(text):
        return None
    return shown


def compose(lines: list[str], kept: list[int], entry_id: str, gap: int = 2) -> str:
    """The kept lines (sorted indices) in order; each run of `gap` or more of the others is
    one pointer naming the lines (1-based, as archived) that `recall` returns."""
    out: list[str] = []
    last = -1
    for i in [*kept, len(lines)]:
        skipped = i - last - 1
        if skipped >= gap:
            out.append(f"[… {skipped} lines: recall {entry_id} lines={last + 2}-{i}]")
        elif skipped:
            out.extend(lines[last + 1 : i])
        if i < len(lines):
            out.append(lines[i])
        last = i
    return "\n".join(out)
