"""edit_file: exact string replacement that helps the model when its string is wrong."""

from __future__ import annotations

import difflib
import heapq
from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params
from tools.permissions import approve_edit
from tools.pycheck import numbered, syntax_line, syntax_problem
from tools.snapshots import recorded
from tools.textfile import encode, read_text
from tools.workspace import display, no_such_file, resolve_path, write_in_workspace

MAX_DIFF_LINES = 80
SHOW_CONTEXT = 2  # lines around the closest match


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def _occurrences(text: str, needle: str) -> list[int]:
    found, start = [], text.find(needle)
    while start >= 0:
        found.append(start)
        start = text.find(needle, start + len(needle))
    return found


def _window_score(lines: list[str], start: int, want: list[str]) -> float:
    window = "\n".join(s.strip() for s in lines[start : start + len(want)])
    return difflib.SequenceMatcher(None, window, "\n".join(w.strip() for w in want)).ratio()


def closest_match(lines: list[str], old: str) -> tuple[int, float]:
    """(0-based start line, similarity) of the block of the file most like `old`."""
    want = old.strip("\n").split("\n")
    keys = [(j, w.strip()) for j, w in enumerate(want) if w.strip()][:8]
    starts: set[int] = set()
    stripped = [line.strip() for line in lines]
    for j, key in keys:
        scored = []
        m = difflib.SequenceMatcher(None, "", key, autojunk=False)  # `key` is indexed once
        for i, line in enumerate(stripped):
            m.set_seq1(line)
            if m.real_quick_ratio() > 0.5:
                quick = m.quick_ratio()
                if quick > 0.5:
                    scored.append((quick, i))
        best = []
        for _, i in heapq.nlargest(40, scored):  # the exact ratio only for the likeliest lines
            m.set_seq1(stripped[i])
            best.append((m.ratio(), i))
        starts.update(max(0, i - j) for _, i in heapq.nlargest(5, best))
    best = max(((_window_score(lines, s, want), s) for s in starts), default=(0.0, 0))
    return best[1], best[0]


WHOLE_FILE = 40  # lines: a file this short is shown whole when nothing is similar


def _not_found(text: str, old: str, rel: str) -> ToolError:
    lines = text.split("\n")
    start, score = closest_match(lines, old)
    if score < 0.4 and len(lines) <= WHOLE_FILE:
        return ToolError(
            f"old_string not found in {rel}, and nothing similar. The file is:\n"
            f"{numbered(lines, 1, len(lines))}\nCopy the exact text (indentation included, "
            "without the line numbers) into old_string."
        )
    if score < 0.4:
        return ToolError(
            f"old_string not found in {rel}, and nothing similar; read the file "
            "(or search_files) to get the exact text"
        )
    height = old.strip("\n").count("\n") + 1
    lo, hi = max(0, start - SHOW_CONTEXT), min(len(lines), start + height + SHOW_CONTEXT)
    shown = "\n".join(f"{n + 1:>6}\t{lines[n]}" for n in range(lo, hi))
    return ToolError(
        f"old_string not found in {rel}. Closest match ({score:.0%} similar) at "
        f"lines {start + 1}-{start + height}:\n{shown}\nCopy the exact text "
        "(indentation included) into old_string."
    )


def unified(old: str, new: str, rel: str) -> tuple[str, int, int]:
    """A small unified diff (capped) and the counts of added and removed lines."""
    diff = list(
        difflib.unified_diff(
            old.split("\n"), new.split("\n"), f"a/{rel}", f"b/{rel}", n=2, lineterm=""
        )
    )
    added = sum(1 for d in diff[2:] if d.startswith("+"))
    removed = sum(1 for d in diff[2:] if d.startswith("-"))
    if len(diff) > MAX_DIFF_LINES:
        diff = diff[:MAX_DIFF_LINES] + [f"… {len(diff) - MAX_DIFF_LINES} more diff lines"]
    return "\n".join(diff), added, removed


def _pairs(args: dict[str, Any]) -> list[dict[str, Any]]:
    """The call's replacements: its one old/new pair, or its `edits` (Claude Code's MultiEdit)."""
    edits = args.get("edits")
    if edits == [] and "old_string" in args:
        edits = None  # a small model fills in every property: `edits: []` beside a pair is none
    if edits is None:
        if "old_string" not in args or "new_string" not in args:
            raise ToolError("give old_string and new_string (or edits: a list of such pairs)")
        return [args]
    if "old_string" in args or "new_string" in args:
        raise ToolError("give old_string and new_string, or edits, not both")
    if not isinstance(edits, list) or not edits:
        raise ToolError("edits is empty; give at least one {old_string, new_string}")
    return edits


def _replace(text: str, pair: dict[str, Any], rel: str) -> tuple[str, list[int]]:
    """`text` with one pair applied, and where its old_string was found."""
    old = str(pair.get("old_string") or "").replace("\r\n", "\n")
    new = str(pair.get("new_string", "")).replace("\r\n", "\n")
    if not old:
        raise ToolError("old_string is empty; use write_file to create or overwrite a file")
    if old == new:
        raise ToolError("old_string and new_string are the same; nothing to change")
    hits = _occurrences(text, old)
    if not hits:
        raise _not_found(text, old, rel)
    if len(hits) > 1 and not pair.get("replace_all"):
        where = ", ".join(str(_line_of(text, h)) for h in hits[:20])
        raise ToolError(
            f"old_string occurs {len(hits)} times in {rel} (lines {where}); add "
            "surrounding lines to make it unique, or set replace_all=true"
        )
    if pair.get("replace_all"):
        return text.replace(old, new), hits
    return text.replace(old, new, 1), hits[:1]


def _apply_all(text: str, pairs: list[dict[str, Any]], rel: str) -> tuple[str, int, int]:
    """Every pair in order, each on the text the ones before it left (all or none): the new
    text, how many replacements, and the first changed line of the original."""
    count, first = 0, 0
    for n, pair in enumerate(pairs, 1):
        if not isinstance(pair, dict):
            raise ToolError(f"edit {n} of {len(pairs)} is not an {{old_string, new_string}} object")
        try:
            after, hits = _replace(text, pair, rel)
        except ToolError as exc:
            if len(pairs) == 1:
                raise
            raise ToolError(
                f"edit {n} of {len(pairs)}: {exc}\nNo edit was applied (all or none): "
                "the file is unchanged."
            ) from None
        first = first or _line_of(text, hits[0])
        text, count = after, count + len(hits)
    return text, count, first


def edit_file(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    target = resolve_path(ctx, args["path"], write=True)
    rel = display(ctx, target)
    pairs = _pairs(args)
    if not target.exists():
        raise no_such_file(ctx, target, args["path"])
    doc = read_text(target, args["path"])
    text, count, first = _apply_all(doc.text, pairs, rel)
    broken = syntax_problem(rel, text)
    if broken and syntax_problem(rel, doc.text) is None:
        raise ToolError(
            f"edit not applied: {rel} would no longer parse as Python: {broken}\n"
            "Fix new_string (the file is unchanged) and try again."
        )
    data = encode(text, doc.encoding, doc.newline)
    diff, added, removed = unified(doc.text, text, rel)
    approve_edit(ctx, target, diff, new_file=False)
    with recorded(ctx, f"edit_file {display(ctx, target)}", target):
        write_in_workspace(ctx, target, data)
    info = {
        "path": rel,
        "diff": diff,
        "added": added,
        "removed": removed,
        "replacements": count,
        "line": first,
    }
    if "edits" in args:
        info["edits"] = len(pairs)
    return ToolOutput(
        f"edited {rel} (+{added} -{removed})\n{diff}{syntax_line(rel, text)}", data=info
    )


PAIR = {
    "type": "object",
    "properties": {
        "old_string": {"type": "string"},
        "new_string": {"type": "string"},
        "replace_all": {"type": "boolean"},
    },
    "required": ["old_string", "new_string"],
    "additionalProperties": False,
}

TOOLS = [
    Tool(
        "edit_file",
        "Replace old_string (exact, with indentation; unique unless replace_all) by new_string, "
        "or apply edits (such pairs) in order, all or none; returns a diff.",
        params(
            ["path"],
            path={"type": "string"},
            old_string={"type": "string"},
            new_string={"type": "string"},
            replace_all={"type": "boolean"},
            edits={"type": "array", "items": PAIR},
        ),
        edit_file,
        key_arg="path",
    ),
]
