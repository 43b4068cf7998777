"""recall: bring back a tool output that the context replaced by a one-line fact."""

from __future__ import annotations

import re
from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params
from tools.services import ArchivedOutput

MAX_CHARS = 30_000
MAX_MATCHES = 200  # lines a `grep` recall returns, at most


def recall(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    archive = ctx.services.archive
    if archive is None:
        raise ToolError("recall: nothing is archived in this session")
    entry_id, query = str(args.get("id") or "").strip(), str(args.get("query") or "").strip()
    if not entry_id and not query:
        raise ToolError("recall needs an id (like a3) or a query")
    if entry_id:
        entry = archive.get(entry_id)
        if entry is None:
            known = ", ".join(list(archive.entries)[-5:]) or "none yet"
            raise ToolError(f"no archived output #{entry_id.lstrip('#')} (latest: {known})")
        return ToolOutput(_part(entry, args), data={"id": entry.id})
    hits = archive.search(query)
    if not hits:
        raise ToolError(f"nothing archived matches '{query}'")
    if len(hits) == 1 or hits[0][0] >= 2 * hits[1][0]:
        return ToolOutput(_part(hits[0][1], args), data={"id": hits[0][1].id})
    rows = [f"#{e.id} {e.fact or e.tool + ' ' + e.target}" for _, e in hits]
    return ToolOutput(
        "Several archived outputs match; recall one by id:\n" + "\n".join(rows),
        data={"ids": [e.id for _, e in hits]},
    )


_SPAN = re.compile(r"(\d+)(?:-(\d+))?")


def _part(entry: ArchivedOutput, args: dict[str, Any]) -> str:
    """The whole output, or only `lines` (1-based "A-B" or "A") or the lines containing
    `grep`, numbered: a recall costs what the model asked for."""
    span = "" if args.get("lines") is None else str(args["lines"]).replace(" ", "")
    needle = str(args.get("grep") or "")
    if not span and not needle:
        return _full(entry)
    rows = list(enumerate(entry.text.splitlines(), start=1))
    total = len(rows)
    if span:
        match = _SPAN.fullmatch(span)
        low, high = (int(match[1]), int(match[2] or match[1])) if match else (0, -1)
        if not match or not 1 <= low <= high:
            raise ToolError(f"recall: lines must look like 40-80 (first <= last), got '{span}'")
        rows = rows[low - 1 : high]
    if needle:
        rows = [(n, line) for n, line in rows if needle.lower() in line.lower()]
    shown, size = [], 0
    for n, line in rows[:MAX_MATCHES]:
        if size + len(line) + 8 > MAX_CHARS:
            if shown:
                continue  # a shorter row after it may still fit
            line = line[: MAX_CHARS - 40] + " […]"  # one very long line: its start
        size += len(line) + 8
        shown.append(f"{n:6}\t{line}")
    missing = len(rows) - len(shown)
    more = f"; {missing} more cut, ask for fewer" if missing else ""
    head = f"[#{entry.id} {entry.tool} {entry.target}: {len(rows)} of {total} lines{more}]"
    return "\n".join([head, *shown])


def _full(entry: ArchivedOutput) -> str:
    text = entry.text
    if len(text) > MAX_CHARS:
        half = MAX_CHARS // 2
        text = f"{text[:half]}\n[… {len(text) - MAX_CHARS} chars cut …]\n{text[-half:]}"
    return f"[#{entry.id} {entry.tool} {entry.target}]\n{text}"


def _available(ctx: ToolContext) -> str | None:
    archive = ctx.services.archive
    return None if archive is not None and archive.entries else "nothing is archived yet"


TOOLS = [
    Tool(
        "recall",
        "An archived output by id (a3) or query; lines or grep return only those lines, "
        "numbered: prefer them to the whole.",
        params(
            [],
            id={"type": "string"},
            query={"type": "string"},
            lines={"type": "string", "description": "first-last line numbers"},
            grep={"type": "string", "description": "text the lines contain"},
        ),
        recall,
        available=_available,
        key_arg="id",
        read_only=True,
    ),
]
