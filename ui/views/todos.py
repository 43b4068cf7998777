"""The model's todo list on the screen, redrawn each time the `todo` tool changes it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ui.words import Strings

if TYPE_CHECKING:
    from rich.console import Console

MARKS = {"done": ("☑", "dim strike"), "in_progress": ("◐", "bold yellow"), "pending": ("☐", "")}


def render_todos(console: Console, items: list[dict[str, Any]], strings: Strings) -> None:
    from rich.text import Text

    if not items:
        return
    done = sum(1 for i in items if i.get("status") == "done")
    title = strings.t("Todo")
    console.print(Text(f"    {title} {done}/{len(items)}", style="bold"))
    for item in items:
        mark, style = MARKS.get(str(item.get("status")), ("☐", ""))
        console.print(Text(f"    {mark} {item.get('content', '')}", style=style), soft_wrap=True)
