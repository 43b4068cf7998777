"""A tool's one line as a person reads it: one summarizer per tool in one table (no Python
reprs of arguments), and a failed call's last lines (the exit code and the output's tail, as the
model gets them)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from ui.words import Strings

WIDTH = 70  # the summary's longest length
TAIL = 6  # lines of a failed call's output shown under its line
SEP = " · "

Summary = Callable[[dict[str, Any], Strings], str]


def flat(value: Any) -> str:
    """Any argument on one line: text with its whitespace folded, anything else as JSON."""
    if not isinstance(value, str):
        value = json.dumps(value, ensure_ascii=False)
    return " ".join(value.split())


def quoted(value: Any) -> str:
    return f'"{flat(value)}"'


def joined(*parts: str) -> str:
    return SEP.join(p for p in parts if p)


def _lines(value: Any) -> int:
    return len(value.splitlines()) if isinstance(value, str) else 0


def _read(args: dict[str, Any], s: Strings) -> str:
    offset, limit = args.get("offset"), args.get("limit")
    span = ""
    if isinstance(offset, int) and isinstance(limit, int):
        span = s.t("lines {first}–{last}", first=offset, last=offset + limit - 1)
    elif isinstance(offset, int):
        span = s.t("from line {first}", first=offset)
    elif isinstance(limit, int):
        span = s.tn("first {n} line", "first {n} lines", limit, n=limit)
    return joined(flat(args.get("path", "")), span)


def _write(args: dict[str, Any], s: Strings) -> str:
    n = _lines(args.get("content"))
    grown = (
        s.tn("+{n} line", "+{n} lines", n, n=n)
        if args.get("append")
        else s.tn("{n} line", "{n} lines", n, n=n)
    )
    return joined(flat(args.get("path", "")), grown)


def _search(args: dict[str, Any], s: Strings) -> str:
    return joined(
        quoted(args.get("pattern", "")), flat(args.get("path", "")), flat(args.get("file_glob", ""))
    )


def _list(args: dict[str, Any], s: Strings) -> str:
    return joined(flat(args.get("path", "") or "."), flat(args.get("pattern", "")))


def _todo(args: dict[str, Any], s: Strings) -> str:
    todos = [t for t in args.get("todos") or [] if isinstance(t, dict)]
    done = sum(t.get("status") == "done" for t in todos)
    now = next((t.get("content", "") for t in todos if t.get("status") == "in_progress"), "")
    return joined(s.t("{done}/{n} done", done=done, n=len(todos)), flat(now))


def _memory(args: dict[str, Any], s: Strings) -> str:
    text = args.get("content")
    return joined(
        flat(args.get("action", "")),
        flat(args.get("key", "")),
        quoted(text) if text else "",
        flat(args.get("scope", "")),
    )


def _recall(args: dict[str, Any], s: Strings) -> str:
    what = f"#{flat(args['id']).lstrip('#')}" if args.get("id") else quoted(args.get("query", ""))
    grep = quoted(args["grep"]) if args.get("grep") else ""
    return joined(what, flat(args.get("lines", "")), grep)


def _code_map(args: dict[str, Any], s: Strings) -> str:
    name = flat(args.get("name", ""))
    if args.get("new_name"):
        name = f"{name} → {flat(args['new_name'])}"
    return joined(flat(args.get("action", "")), name, flat(args.get("path", "")))


def _task(args: dict[str, Any], s: Strings) -> str:
    what = args.get("description") or args.get("prompt", "")
    return joined(flat(args.get("agent", "")), flat(what))


def _one(name: str, wrap: Callable[[Any], str] = flat) -> Summary:
    return lambda args, s: wrap(args.get(name, ""))


SUMMARIES: dict[str, Summary] = {
    "read_file": _read,
    "write_file": _write,
    "edit_file": _one("path"),
    "multi_edit": _one("path"),
    "search_files": _search,
    "list_files": _list,
    "terminal": _one("command"),
    "todo": _todo,
    "memory": _memory,
    "recall": _recall,
    "code_map": _code_map,
    "task": _task,
    "skill": _one("name"),
    "web_search": _one("query", quoted),
    "web_read": _one("url"),
    "clarify": _one("question", quoted),
}


def other_tool(args: dict[str, Any], key: str) -> str:
    """A tool without a summarizer (MCP, plugins): its declared argument, else `name=value`s."""
    if key in args:
        return flat(args[key])
    return " ".join(f"{name}={flat(value)}" for name, value in args.items())


def summary(name: str, args: Any, s: Strings, key: str = "", width: int = WIDTH) -> str:
    """The one-line summary of a call to tool `name`, at most `width` characters."""
    args = args if isinstance(args, dict) else {}
    known = SUMMARIES.get(name)
    try:
        text = known(args, s) if known else other_tool(args, key)
    except (TypeError, ValueError, AttributeError):  # arguments of the wrong shape
        text = other_tool(args, key)
    return text if len(text) <= width else text[: width - 1] + "…"


def failure_tail(content: str, s: Strings, tail: int = TAIL) -> list[str]:
    """The last lines of a failed call's result (a command's tail and `[exit N]`), with how
    many came before them."""
    lines = content.strip("\n").splitlines() or [""]
    shown = lines[-tail:]
    hidden = len(lines) - len(shown)
    if hidden:
        return [s.tn("… {n} line before", "… {n} lines before", hidden, n=hidden), *shown]
    return shown
