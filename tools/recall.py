"""recall: bring back a tool output that the context replaced by a one-line fact."""

from __future__ import annotations

from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params
from tools.services import ArchivedOutput

MAX_CHARS = 30_000


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
        return ToolOutput(_full(entry), data={"id": entry.id})
    hits = archive.search(query)
    if not hits:
        raise ToolError(f"nothing archived matches '{query}'")
    if len(hits) == 1 or hits[0][0] >= 2 * hits[1][0]:
        return ToolOutput(_full(hits[0][1]), data={"id": hits[0][1].id})
    rows = [f"#{e.id} {e.fact or e.tool + ' ' + e.target}" for _, e in hits]
    return ToolOutput(
        "Several archived outputs match; recall one by id:\n" + "\n".join(rows),
        data={"ids": [e.id for _, e in hits]},
    )


def _full(entry: ArchivedOutput) -> str:
    text = entry.text
    if len(text) > MAX_CHARS:
        half = MAX_CHARS // 2
        text = f"{text[:half]}\n[… {len(text) - MAX_CHARS} chars cut …]\n{text[-half:]}"
    return f"[#{entry.id} {entry.tool} {entry.target}]\n{text}"


TOOLS = [
    Tool(
        "recall",
        "Full text of an archived output: by id (as in [archived #a3]) or query (the best "
        "match, or ranked ids when several fit).",
        params([], id={"type": "string"}, query={"type": "string"}),
        recall,
        key_arg="id",
        read_only=True,
    ),
]
