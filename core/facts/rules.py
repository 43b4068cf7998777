"""Fact rules for every built-in tool (and the equivalent tools of recorded agents)."""

from __future__ import annotations

import re
from typing import Any

from core.facts.outline import describe_code
from core.facts.shell_facts import MAX_ITEMS, shell_fact
from my_agent.facts import Fact
from my_agent.messages import ToolCall

Output = Any  # tools.base.ToolOutput: content, is_error, data


def _arg(call: ToolCall, *names: str) -> str:
    for name in names:
        value = call.arguments.get(name)
        if value not in (None, ""):
            return str(value)
    return ""


def _first_line(text: str, limit: int = 120) -> str:
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _data(output: Output) -> dict:
    return getattr(output, "data", None) or {}


def _failed(call: ToolCall, kind: str, target: str, output: Output, **kw: Any) -> Fact:
    return Fact(
        tool=call.name,
        kind=kind,
        target=target,
        ok=False,
        summary=_first_line(output.content),
        **kw,
    )


def terminal_fact(call: ToolCall, output: Output) -> Fact:
    return shell_fact(call.name, _arg(call, "command", "cmd"), output)


def read_fact(call: ToolCall, output: Output) -> Fact:
    data = _data(output)
    path = str(data.get("path") or _arg(call, "path", "file_path"))
    if output.is_error:
        return _failed(call, "read", path, output, path=path)
    text = re.sub(r"^\[encoding: \S+\]\n", "", output.content)
    summary, details = describe_code(path, text, data.get("lines"))
    if data.get("encoding") and data["encoding"] != "utf-8":
        summary += f", {data['encoding']}"
    return Fact(
        tool=call.name, kind="read", target=path, summary=summary, path=path, details=details
    )


def write_fact(call: ToolCall, output: Output) -> Fact:
    data = _data(output)
    path = str(data.get("path") or _arg(call, "path", "file_path"))
    if output.is_error:
        return _failed(call, "write", path, output, path=path)
    summary, details = describe_code(path, _arg(call, "content"))
    verb = _first_line(output.content).split(" ", 1)[0] if output.content else "wrote"
    verb = verb if verb in ("created", "overwrote", "appended") else "wrote"
    return Fact(
        tool=call.name,
        kind="write",
        target=path,
        summary=f"{verb}, {summary}",
        path=path,
        details=details,
    )


def edit_fact(call: ToolCall, output: Output) -> Fact:
    data = _data(output)
    path = str(data.get("path") or _arg(call, "path", "file_path"))
    if output.is_error:
        return _failed(call, "edit", path, output, path=path)
    diff = str(data.get("diff") or "")
    where = re.findall(r"^@@ -\d+(?:,\d+)? \+(\d+)", diff, re.M)
    if not where:
        where = re.findall(r"^\s*(\d+)(?:\t|→)", output.content, re.M)[:1]
    old, new = (
        _arg(call, "old_string", "old_str", "old"),
        _arg(call, "new_string", "new_str", "new"),
    )
    change = (
        f"-{old.count(chr(10)) + 1 if old else 0} +{new.count(chr(10)) + 1 if new else 0} lines"
    )
    if "edits" in data:  # several edits in one call: the diff's counts
        change = f"{data['edits']} edits, -{data.get('removed', 0)} +{data.get('added', 0)} lines"
    at = f" at l.{', '.join(where[:4])}" if where else ""
    return Fact(
        tool=call.name,
        kind="edit",
        target=path,
        summary=f"{change}{at}",
        path=path,
        details={"lines": [int(w) for w in where[:10]]},
    )


def search_fact(call: ToolCall, output: Output) -> Fact:
    data = _data(output)
    pattern = _arg(call, "pattern", "query", "regex")
    where = _arg(call, "path", "glob")
    target = f"'{pattern}'" + (f" in {where}" if where else "")
    if output.is_error:
        return _failed(call, "search", target, output)
    fact = shell_fact(call.name, f"grep -rn {pattern}", output)
    count = data.get("matches")
    summary = (
        fact.summary
        if count is None or fact.summary.startswith(str(count))
        else (f"{count} matches: " + fact.summary.split(": ", 1)[-1])
    )
    return Fact(
        tool=call.name,
        kind="search",
        target=target,
        summary=summary,
        details={k: v for k, v in data.items() if k in ("matches", "files")},
    )


def list_fact(call: ToolCall, output: Output) -> Fact:
    target = _arg(call, "path", "pattern") or "."
    if output.is_error:
        return _failed(call, "list", target, output)
    items = [r.strip() for r in output.content.splitlines() if r.strip() and not r.startswith("[")]
    shown = ", ".join(items[:MAX_ITEMS]) + (
        f", +{len(items) - MAX_ITEMS} more" if len(items) > MAX_ITEMS else ""
    )
    return Fact(
        tool=call.name,
        kind="list",
        target=target,
        summary=f"{len(items)} entries: {shown}",
        details={"entries": len(items)},
    )


def web_search_fact(call: ToolCall, output: Output) -> Fact:
    query = _arg(call, "query")
    if output.is_error:
        return _failed(call, "web", query, output)
    urls = re.findall(r"https?://[^\s)\]>\"']+", output.content)
    hosts = list(dict.fromkeys(re.sub(r"^https?://(www\.)?", "", u).split("/")[0] for u in urls))
    return Fact(
        tool=call.name,
        kind="web",
        target=query,
        summary=f"{len(urls)} results" + (f": {', '.join(hosts[:4])}" if hosts else ""),
        details={"urls": urls[:10]},
    )


def web_read_fact(call: ToolCall, output: Output) -> Fact:
    url = _arg(call, "url")
    if output.is_error:
        return _failed(call, "web", url, output)
    title = _first_line(re.sub(r"^#+\s*", "", output.content.lstrip()), 80)
    return Fact(
        tool=call.name,
        kind="web",
        target=url,
        summary=f"{len(output.content)} chars: {title}" if title else "empty page",
    )


def mcp_fact(call: ToolCall, output: Output) -> Fact:
    """An MCP tool's result: its server, first argument and first line, and what it held."""
    data = _data(output)
    parts = call.name.split("__")
    server = str(data.get("server") or (parts[1] if len(parts) > 2 else ""))
    target = str(next(iter(call.arguments.values()), "")) if call.arguments else ""
    first = _first_line(output.content, 100)
    kinds = [k for k in data.get("content", []) if k != "text"]
    extra = f" [{', '.join(kinds)}]" if kinds else ""
    return Fact(
        tool=call.name,
        kind="mcp",
        target=target[:120],
        ok=not output.is_error,
        summary=f"{first}{extra}" if first else f"{len(output.content)} chars{extra}",
        details={"server": server, "tool": str(data.get("tool") or parts[-1])},
    )


def clarify_fact(call: ToolCall, output: Output) -> Fact:
    asked = call.arguments.get("questions")
    if isinstance(asked, list) and asked and isinstance(asked[0], dict):
        asked = asked[0].get("question", "")
    question = _arg(call, "question") or _first_line(str(asked or ""), 80)
    answer = _first_line(output.content, 100)
    return Fact(
        tool=call.name,
        kind="ask",
        target=question[:100],
        ok=not output.is_error,
        summary=f"answer: {answer}" if answer else "no answer",
    )


def recall_fact(call: ToolCall, output: Output) -> Fact:
    target = _arg(call, "id", "query")
    return Fact(
        tool=call.name,
        kind="recall",
        target=target,
        ok=not output.is_error,
        summary=f"{len(output.content)} chars recalled"
        if not output.is_error
        else _first_line(output.content),
    )


def memory_fact(call: ToolCall, output: Output) -> Fact:
    action = _arg(call, "action", "op") or "memory"
    target = _arg(call, "text", "query", "id", "key")
    return Fact(
        tool=call.name,
        kind="memory",
        target=f"{action} {target}".strip()[:100],
        ok=not output.is_error,
        summary=_first_line(output.content, 100),
    )


def todo_fact(call: ToolCall, output: Output) -> Fact:
    todos = call.arguments.get("todos") or []
    active = [
        t.get("content", "")
        for t in todos
        if isinstance(t, dict) and t.get("status") == "in_progress"
    ]
    done = sum(1 for t in todos if isinstance(t, dict) and t.get("status") == "completed")
    return Fact(
        tool=call.name,
        kind="other",
        target=f"{len(todos)} todos",
        summary=f"{done} done" + (f", doing: {active[0][:80]}" if active else ""),
    )
