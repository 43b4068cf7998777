"""`/agents`: the sub-agents the `task` tool can start, and where each is defined."""

from __future__ import annotations

from typing import Any


def cmd_agents(repl: Any, arg: str) -> None:
    from rich.table import Table

    from core.agent import find_agents

    s = repl.s
    workspace = repl.agent.tool_context.workspace
    table = Table(title=s.t("Sub-agents"), box=None, padding=(0, 2), title_justify="left")
    for column in (s.t("name"), s.t("description"), s.t("tools"), s.t("model"), s.t("file")):
        table.add_column(column)
    for agent in find_agents(workspace, repl.home).values():
        where = s.t("built in")
        if agent.path is not None:
            try:
                where = str(agent.path.relative_to(workspace))
            except ValueError:
                where = str(agent.path)
        table.add_row(
            agent.name,
            s.line(agent.description),
            ", ".join(agent.tools) or s.t("all tools"),
            agent.model or s.t("same model"),
            where,
        )
    repl.console.print(table)
