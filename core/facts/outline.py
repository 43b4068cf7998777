"""What a person notes after reading code: the language and the definitions, with line numbers."""

from __future__ import annotations

import re

from my_agent.langs import language_of

# One pattern per language family; group "kind" is the keyword kept, "name" the symbol.
_DEF = {
    "Python": r"^\s*(?:async\s+)?(?P<kind>class|def)\s+(?P<name>\w+)",
    "JavaScript": r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?P<kind>function\*?|class)\s+"
    r"(?P<name>[\w$]+)",
    "Go": r"^(?P<kind>func|type)\s+(?:\([^)]*\)\s*)?(?P<name>\w+)",
    "Rust": r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?P<kind>fn|struct|enum|trait|impl|mod)\s+(?P<name>\w+)",
    "Java": r"^\s*(?:public|private|protected)?\s*(?:static\s+)?(?:final\s+)?(?:abstract\s+)?"
    r"(?P<kind>class|interface|enum|record)\s+(?P<name>\w+)",
    "Ruby": r"^\s*(?P<kind>class|module|def)\s+(?P<name>[\w.?!]+)",
    "Elixir": r"^\s*(?P<kind>defmodule|defp?|defmacrop?)\s+(?P<name>[\w.?!]+)",
    "C": r"^(?P<kind>struct|enum|typedef)\s+(?P<name>\w+)",
    "Shell": r"^\s*(?:function\s+)?(?P<name>[\w-]+)\s*\(\)\s*\{(?P<kind>)",
}
_DEF["TypeScript"] = _DEF["JavaScript"].replace("class)", "class|interface|type|enum)")
_DEF["Kotlin"] = r"^\s*(?:\w+\s+)*(?P<kind>fun|class|object|interface)\s+(?P<name>\w+)"
_DEF["C++"] = r"^(?P<kind>class|struct|namespace)\s+(?P<name>\w+)"
_DEF["PHP"] = r"^\s*(?:\w+\s+)*(?P<kind>function|class|interface|trait)\s+(?P<name>\w+)"
_DEF["C#"] = _DEF["Java"]
_COMPILED = {lang: re.compile(rx) for lang, rx in _DEF.items()}

# Line-number prefixes of the usual viewers: read_file/cat -n ("  12\t"), Claude Code ("  12→"),
# SWE-agent's `open` ("12:"), grep -n ("path:12:").
_NUMBERED = re.compile(r"^\s*(\d+)(?:\t|→|:| {2})(.*)$")
MAX_DEFS = 8
MAX_NAMES = 30


def numbered_lines(text: str) -> list[tuple[int, str]]:
    """(line number, text) pairs; counts from 1 when the viewer printed no numbers."""
    rows = text.splitlines()
    parsed = [_NUMBERED.match(r) for r in rows]
    hits = sum(1 for m in parsed if m)
    if rows and hits >= max(1, len(rows) // 2):
        return [(int(m.group(1)), m.group(2)) for m in parsed if m]
    return list(enumerate(rows, 1))


def definitions(text: str, language: str) -> list[tuple[str, str, int]]:
    """(kind, name, line) for each top-level-looking definition the text shows."""
    pattern = _COMPILED.get(language)
    if pattern is None:
        return []
    found = []
    for no, line in numbered_lines(text):
        m = pattern.match(line)
        if m and m.group("name"):
            found.append(((m.group("kind") or "fn").rstrip("*"), m.group("name"), no))
    return found


def describe_definitions(
    defs: list[tuple[str, str, int]], limit: int = MAX_DEFS, names: int | None = None
) -> str:
    """'class Auth (l.3), def login (l.10, 42); also: logout, refresh; +4 more' — an outline.
    Repeated definitions of one name (overloads, clauses) share one entry."""
    names = MAX_NAMES if names is None else names
    grouped: dict[tuple[str, str], list[int]] = {}
    for kind, name, no in defs:
        grouped.setdefault((kind, name), []).append(no)
    entries = list(grouped.items())
    shown = ", ".join(
        f"{kind} {name} (l.{', '.join(map(str, lines))})" for (kind, name), lines in entries[:limit]
    )
    rest = list(dict.fromkeys(name for (_, name), _ in entries[limit:]))
    if rest[: names - limit]:
        shown += "; also: " + ", ".join(rest[: names - limit])
    if len(rest) > names - limit:
        shown += f"; +{len(rest) - (names - limit)} more"
    return shown


def describe_code(path: str, text: str, line_count: int | None = None) -> tuple[str, dict]:
    """Summary text and details for a view of `path` showing `text`."""
    lang = language_of(path)
    rows = numbered_lines(text)
    count = line_count if line_count is not None else len(rows)
    span = ""
    if rows and rows[0][0] > 1:
        span = f"lines {rows[0][0]}-{rows[-1][0]}"
    defs = definitions(text, lang)
    parts = [span or f"{count} lines"]
    if span and line_count:
        parts[0] += f" of {line_count}"
    head = lang
    if defs:
        head = f"{lang}: {describe_definitions(defs)}" if lang else describe_definitions(defs)
    if head:
        parts.append(head)
    details = {"lines": count, "language": lang, "symbols": [f"{k} {n}" for k, n, _ in defs][:20]}
    return ", ".join(parts), details
