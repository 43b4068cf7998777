"""The fact rule table: tool name -> rule. Recorded sessions' tool names (Bash, Read, ...)
map to the same rules as ours. A plain dict: add a rule by adding a row."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from core.facts.codemap import code_map_fact
from core.facts.rules import (
    clarify_fact,
    edit_fact,
    list_fact,
    mcp_fact,
    memory_fact,
    read_fact,
    recall_fact,
    search_fact,
    terminal_fact,
    todo_fact,
    web_read_fact,
    web_search_fact,
    write_fact,
)
from my_agent.facts import Fact
from my_agent.messages import ToolCall

Rule = Callable[[ToolCall, Any], Fact]

RULES: dict[str, Rule] = {
    "terminal": terminal_fact,
    "bash": terminal_fact,
    "Bash": terminal_fact,
    "read_file": read_fact,
    "Read": read_fact,
    "write_file": write_fact,
    "Write": write_fact,
    "edit_file": edit_fact,
    "Edit": edit_fact,
    "MultiEdit": edit_fact,
    "str_replace_editor": edit_fact,
    "search_files": search_fact,
    "Grep": search_fact,
    "list_files": list_fact,
    "Glob": list_fact,
    "LS": list_fact,
    "web_search": web_search_fact,
    "WebSearch": web_search_fact,
    "web_read": web_read_fact,
    "WebFetch": web_read_fact,
    "clarify": clarify_fact,
    "AskUserQuestion": clarify_fact,
    "recall": recall_fact,
    "memory": memory_fact,
    "TodoWrite": todo_fact,
    "code_map": code_map_fact,
    "mcp": mcp_fact,  # every MCP server's tools: mcp__<server>__<tool>
}
