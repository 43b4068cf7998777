"""Claude Code's names and shapes for Unicum's tools, in one table.

Hooks get their event JSON in these names and shapes (`tool_name: "Edit"`, `tool_input.file_path`
absolute), matchers and permission rules match either name, and a hook's `updatedInput` comes
back through the same table. Unicum's own names travel beside them (`unicum_tool_name`,
`unicum_tool_input`). A tool with no row (memory, recall, code_map...) keeps its own name and
arguments; an MCP tool is `mcp__<server>__<tool>` in both."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.base import ToolOutput


@dataclass(frozen=True)
class ClaudeTool:
    name: str  # Claude Code's name
    fields: tuple[tuple[str, str], ...]  # (Claude Code's key, Unicum's key)
    paths: frozenset[str] = frozenset()  # Claude keys holding a path: absolute there
    aliases: tuple[str, ...] = ()  # further Claude Code names a matcher or a rule may say
    millis: frozenset[str] = frozenset()  # Claude keys in milliseconds (Unicum: seconds)


_FILE = frozenset({"file_path"})
_PATH = frozenset({"path"})
TABLE: dict[str, ClaudeTool] = {
    "terminal": ClaudeTool(
        "Bash", (("command", "command"), ("timeout", "timeout")), millis=frozenset({"timeout"})
    ),
    "read_file": ClaudeTool(
        "Read", (("file_path", "path"), ("offset", "offset"), ("limit", "limit")), _FILE
    ),
    "write_file": ClaudeTool("Write", (("file_path", "path"), ("content", "content")), _FILE),
    "edit_file": ClaudeTool(
        "Edit",
        (
            ("file_path", "path"),
            ("old_string", "old_string"),
            ("new_string", "new_string"),
            ("replace_all", "replace_all"),
            ("edits", "edits"),
        ),
        _FILE,
    ),
    "list_files": ClaudeTool("Glob", (("pattern", "pattern"), ("path", "path")), _PATH, ("LS",)),
    "search_files": ClaudeTool(
        "Grep",
        (
            ("pattern", "pattern"),
            ("path", "path"),
            ("glob", "file_glob"),
            ("-i", "ignore_case"),
            ("head_limit", "max_results"),
        ),
        _PATH,
    ),
    "web_read": ClaudeTool("WebFetch", (("url", "url"),)),
    "web_search": ClaudeTool("WebSearch", (("query", "query"),)),
    "task": ClaudeTool(
        "Agent",  # Claude Code's hooks reference names it so today; `Task` before
        (("description", "description"), ("prompt", "prompt"), ("subagent_type", "agent")),
        aliases=("Task",),
    ),
    "todo": ClaudeTool("TodoWrite", (("todos", "todos"),)),
}
# Claude Code's MultiEdit (several edits to one file, all or none) is edit_file with `edits`:
# its hooks and rules see `MultiEdit` for such a call, `Edit` for a single one
MULTI_EDIT = "MultiEdit"
# Claude Code's kinds: a rule or matcher naming one covers every Unicum tool of that kind
KINDS: dict[str, tuple[str, ...]] = {
    "Edit": ("edit_file", "write_file"),  # Claude Code: Edit rules cover every file edit
    "Read": ("read_file", "search_files", "list_files"),  # and Read rules every file read
}
# Claude Code's permission modes beside Unicum's
CLAUDE_MODES = {
    "ask": "default",
    "auto-edit": "acceptEdits",
    "plan": "plan",
    "yolo": "bypassPermissions",
}
# `manual` is Claude Code's other name for default; `dontAsk` refuses whatever would ask (what
# `-p` does here anyway; the REPL answers every question no)
MODES = {claude: unicum for unicum, claude in CLAUDE_MODES.items()} | {
    "manual": "ask",
    "dontAsk": "ask",
}


def is_multi_edit(tool: str, args: dict[str, Any] | None) -> bool:
    return tool == "edit_file" and isinstance((args or {}).get("edits"), list)


def claude_name(tool: str, args: dict[str, Any] | None = None) -> str:
    """Claude Code's name for a call of a Unicum tool (its own name when it has none)."""
    if is_multi_edit(tool, args):
        return MULTI_EDIT
    row = TABLE.get(tool)
    return row.name if row else tool


def names_of(tool: str, args: dict[str, Any] | None = None) -> tuple[str, ...]:
    """Every name a matcher may use for a call of `tool`: Unicum's, Claude Code's, aliases."""
    row = TABLE.get(tool)
    if row is None:
        return (tool,)
    return (tool, claude_name(tool, args), *row.aliases)


def unicum_tools(name: str) -> tuple[str, ...]:
    """The Unicum tools a Claude Code (or Unicum) name stands for."""
    if name == MULTI_EDIT:
        return ("edit_file",)
    found = [tool for tool, row in TABLE.items() if name == row.name or name in row.aliases]
    return tuple(found) or (name,)


def _absolute(value: Any, workspace: Path) -> Any:
    if not isinstance(value, str) or not value:
        return value
    return str((workspace / Path(value).expanduser()).resolve())


def claude_input(tool: str, args: dict[str, Any], workspace: Path) -> dict[str, Any]:
    """The call's arguments as Claude Code's tool would have them."""
    row = TABLE.get(tool)
    if row is None:
        return dict(args)
    out: dict[str, Any] = {}
    for theirs, ours in row.fields:
        if ours in args:
            value = args[ours]
            value = _absolute(value, workspace) if theirs in row.paths else value
            out[theirs] = value * 1000 if theirs in row.millis and _number(value) else value
    if tool == "list_files" and "pattern" not in out:
        out["pattern"] = "*"
    return out


def unicum_input(
    tool: str, original: dict[str, Any], updated: dict[str, Any], workspace: Path
) -> dict[str, Any]:
    """A hook's `updatedInput` (Claude Code's keys, or Unicum's) in place of the call's input:
    as in Claude Code it replaces the whole input object, so a field it leaves out is gone;
    Unicum's own arguments that Claude Code's shape does not carry are kept."""
    row = TABLE.get(tool)
    keys = dict(row.fields) if row else {}
    out = {k: v for k, v in original.items() if row and k not in keys.values()}
    for key, value in updated.items():
        ours = keys.get(key, key)
        if row and key in row.paths and isinstance(value, str):
            value = _relative(value, workspace)
        if row and key in row.millis and _number(value):
            value = max(1, round(value / 1000))
        out[ours] = value
    return out


def _relative(value: str, workspace: Path) -> str:
    path = Path(value)
    root = workspace.resolve()
    if path.is_absolute() and (path == root or root in path.parents):
        return path.relative_to(root).as_posix() or "."
    return value


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def claude_response(
    tool: str, args: dict[str, Any], output: ToolOutput, workspace: Path
) -> dict[str, Any]:
    """The result in the shape Claude Code's `tool_response` has for that tool."""
    data, ok = output.data, not output.is_error
    if tool == "terminal":
        text = str(data.get("output", data.get("full_output", output.content)))
        return {"stdout": text, "stderr": "", "interrupted": bool(data.get("timed_out"))} | {
            "isImage": False
        }
    path = _absolute(args.get("path", ""), workspace)
    if tool == "write_file":
        kind = "update" if data.get("removed") else "create"
        return {"type": kind, "filePath": path, "content": args.get("content", ""), "success": ok}
    if is_multi_edit(tool, args):
        return {"filePath": path, "edits": args.get("edits", []), "success": ok}
    if tool == "edit_file":
        return {
            "filePath": path,
            "oldString": args.get("old_string", ""),
            "newString": args.get("new_string", ""),
            "replaceAll": bool(args.get("replace_all")),
            "success": ok,
        }
    if tool == "read_file" and ok:
        lines = output.content.count("\n") + 1
        file = {"filePath": path, "content": output.content, "numLines": lines}
        return {"type": "text", "file": file | {"startLine": int(args.get("offset") or 1)}}
    if tool.startswith("mcp__"):
        return {"content": [{"type": "text", "text": output.content}], "isError": not ok}
    return {"content": output.content, "success": ok}
