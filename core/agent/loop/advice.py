"""What to do instead of repeating a call: the loop guard's advice, named for the tool repeated
and for what the session offers (a tool that is not offered is never advised).

A small model that repeats itself usually has what it needs and does not know the next step;
the advice names it: the file to read from a listing, the edit after a read, the tests after an
edit. A call that cannot help (a tool unavailable here, an unknown tool, an empty result) is
answered with the advice instead of the same empty answer again."""

from __future__ import annotations

from collections.abc import Collection

from my_agent.messages import ToolCall, ToolResult

READS = ("read_file",)
TESTS = "run the tests with terminal (python -m pytest -q) to see what fails"


def listed_files(listing: str) -> list[str]:
    """The files of a `list_files` tree (`dir/` lines, children indented two spaces) or of
    `search_files` matches (a path line, then indented matches)."""
    found, stack = [], []  # stack: (indent, dir path)
    for line in listing.splitlines():
        name = line.strip()
        if not name or name.startswith(("[", "…")) or name == "./":
            continue
        indent = len(line) - len(line.lstrip(" "))
        while stack and stack[-1][0] >= indent:
            stack.pop()
        path = (stack[-1][1] if stack else "") + name
        if name.endswith("/"):
            stack.append((indent, path))
        elif indent == 0 or stack:
            if ":" not in name.split("/")[-1]:  # `  1: x = 1` is a match, not a file
                found.append(path)
    return found


def _unread(files: list[str], read: Collection[str], limit: int = 3) -> str:
    fresh = [f for f in files if f not in read] or files
    return ", ".join(fresh[:limit])


def cannot_help(result: ToolResult) -> bool:
    """An answer with nothing in it: an error (the tool is unavailable, unknown or refused its
    arguments) or an empty or no-match result."""
    text = result.content.strip().lower()
    return result.is_error or not text or text in ("no matches", "(empty)", "[]", "{}")


def advice(
    call: ToolCall, result: ToolResult, tools: Collection[str], read: Collection[str]
) -> str:
    """One sentence: the next step instead of `call` again. `read`: the files read so far."""
    can = set(tools)
    tests = TESTS if "terminal" in can else "answer with what you have"
    path = str(call.arguments.get("path") or "")
    if call.name not in can:
        useful = ", ".join(n for n in ("read_file", "edit_file", "terminal") if n in can)
        return f"{call.name} is not a tool here: use {useful or ', '.join(sorted(can))}"
    if cannot_help(result) and call.name in ("edit_file",) and path and "read_file" in can:
        return f"read_file {path} first and copy the exact lines (indentation included) into old_string"
    if cannot_help(result):
        others = [n for n in ("read_file", "list_files", "edit_file", "terminal") if n in can]
        others = [n for n in others if n != call.name]
        return f"{call.name} has nothing for this task; use {', '.join(others)} instead, or {tests}"
    if call.name in ("list_files", "search_files") and "read_file" in can:
        files = listed_files(result.content)
        if files:
            return f"you have this listing already: read_file one of {_unread(files, read)}, or {tests}"
    if call.name in READS and "edit_file" in can:
        return f"you have read {path or 'this file'} already: change it with edit_file, or {tests}"
    if call.name == "terminal":
        return "the command gives the same output again: change the code with edit_file before running it again, or answer with what it shows"
    return f"calling it again will not show anything new: {tests}, or answer with what you have"
