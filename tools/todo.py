"""todo: the short checklist the model keeps while it works (shown live, kept in L0)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params

STATUSES = ("pending", "in_progress", "done")
MARKS = {"pending": "[ ]", "in_progress": "[~]", "done": "[x]"}
MAX_ITEMS = 20


class TodoList:
    """The session's checklist; the todo tool replaces it whole each time."""

    def __init__(self) -> None:
        self.items: list[tuple[str, str]] = []

    def replace(self, items: Sequence[tuple[str, str]], /) -> None:
        self.items = list(items)

    def render(self) -> str:
        """The list as L0 and the model read it ("" when empty)."""
        if not self.items:
            return ""
        rows = [f"{MARKS[status]} {text}" for text, status in self.items]
        return "Todo:\n" + "\n".join(rows)


def todo(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    board = ctx.services.todos
    if board is None:
        raise ToolError("todo: this session keeps no todo list")
    items: list[tuple[str, str]] = []
    for row in args["todos"][:MAX_ITEMS]:
        text = str(row.get("content", "")).strip() if isinstance(row, dict) else ""
        status = row.get("status", "pending") if isinstance(row, dict) else ""
        if not text or status not in STATUSES:
            raise ToolError(f"todo: each item needs content and a status among {list(STATUSES)}")
        items.append((text, status))
    board.replace(items)
    done = sum(1 for _, s in items if s == "done")
    data = {"todos": [{"content": t, "status": s} for t, s in items]}
    return ToolOutput(f"todo list updated ({done}/{len(items)} done)\n{board.render()}", data=data)


TOOLS = [
    Tool(
        "todo",
        "Checklist for multi-step work, shown to the user: send the whole list each time, "
        "one item in_progress at a time.",
        params(
            ["todos"],
            todos={
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "content": {"type": "string"},
                        "status": {"type": "string", "enum": list(STATUSES)},
                    },
                    "required": ["content", "status"],
                },
            },
        ),
        todo,
        read_only=True,
    ),
]
