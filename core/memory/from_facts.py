"""Rules that turn a task's structured facts into memory entries: zero LLM calls.

Works on `Fact` records only (kind, path, command, details), never on rendered text.
"""

from __future__ import annotations

import posixpath
import re
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from core.memory.rules import (
    COMMAND_KINDS,
    CONFIG_CONVENTIONS,
    FILE_KINDS,
    MIN_LINES,
    NOISE_DIRS,
    PYPROJECT_TOOLS,
    SKIPPED_KINDS,
    TEMP_SUFFIXES,
    TEST_LAYOUTS,
    TOOL_KINDS,
)
from core.memory.store import MemoryEntry, MemoryStore
from my_agent.capped import CONFIG, read_capped, read_capped_text
from my_agent.facts import Fact
from my_agent.langs import language_of
from my_agent.shell.commands import PROJECT_KINDS, lookup
from my_agent.shell.words import argvs, program

_TEMP_NAME = re.compile(r"^(?:\.#|#|(?:tmp|temp)(?:[_\-.\d]|$))", re.IGNORECASE)
_TEMP_ARG = re.compile(r"\s(?:/tmp|/var/tmp|\S*/\.?te?mp)/")  # commands on scratch files
_NARROW = re.compile(r"::|\s-k\s|\s(?:-run|--filter|-t)\s|\s\S+\.(?:py|go|rs|[jt]sx?)\b")
MAX_COMMAND = 200
MAX_READ_BYTES = 2_000_000


def fact_kind(fact: Fact) -> str | None:
    """The fact's kind; generic facts ("other") fall back to the tool table; None = unknown tool."""
    if fact.kind and fact.kind != "other":
        return fact.kind
    return TOOL_KINDS.get(fact.tool)


def succeeded(fact: Fact) -> bool:
    details = fact.details or {}
    return fact.ok and not details.get("exit_code") and not details.get("failed")


def project_path(raw: str | None, root: Path | None) -> str | None:
    """Workspace-relative posix path, or None for paths outside the project or empty ones."""
    text = (raw or "").strip().replace("\\", "/")
    if not text:
        return None
    if text.startswith(("/", "~")) or re.match(r"^[A-Za-z]:/", text):
        if root is None:
            return None
        try:
            text = Path(text).expanduser().resolve().relative_to(root).as_posix()
        except (ValueError, OSError):
            return None
    text = posixpath.normpath(text)
    return None if text == "." or text.startswith("../") or text == ".." else text


def is_noise(path: str) -> bool:
    """Vendored, generated or temporary paths that are not worth remembering."""
    parts = path.split("/")
    name = parts[-1]
    if any(part in NOISE_DIRS for part in parts[:-1]) or name in NOISE_DIRS:
        return True
    if any(part.lower() in ("tmp", "temp") for part in parts[:-1]):
        return True
    return name.lower().endswith(TEMP_SUFFIXES) or bool(_TEMP_NAME.match(name))


def classify_command(command: str) -> tuple[str, str] | None:
    """(category, tool) of a project command by the command table: test, build, lint, format,
    run or setup; the most telling command of the line wins (a test run over its set-up)."""
    found = [c for argv in argvs(command) if (c := lookup(argv)) and c.kind in PROJECT_KINDS]
    if not found:
        return None
    best = min(found, key=lambda c: PROJECT_KINDS.index(c.kind))
    return best.kind, best.tool


def _line_count(root: Path | None, path: str) -> int | None:
    """Lines of a file on disk when the fact did not say; -1 when it no longer exists."""
    if root is None:
        return None
    target = root / path
    try:
        if not target.is_file():
            return -1
        data = read_capped(target, MAX_READ_BYTES)
        return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    except OSError:
        return None


def render(entry_type: str, meta: dict[str, Any]) -> str:
    """The one-line text of an automatic entry, from its structured fields."""
    if entry_type == "files":
        bits = [meta.get("language") or ""]
        if meta.get("lines"):
            bits.append(f"{meta['lines']} lines")
        if meta.get("symbols"):
            bits.append("defines " + ", ".join(meta["symbols"][:5]))
        if meta.get("modified"):
            bits.append("modified")
        return f"{meta['path']}: " + ", ".join(b for b in bits if b)
    if entry_type == "commands":
        return f"{meta['category']}: `{meta['command']}` ({meta['tool']})"
    return str(meta.get("text", ""))


def combine(old: MemoryEntry, new: MemoryEntry) -> MemoryEntry:
    """Later wins, except a read never clears "modified" and a narrow test run (one file,
    -k, ::) never replaces the project's general command."""
    if new.type == "files" and old.meta.get("modified") and not new.meta.get("modified"):
        new.meta = {**new.meta, "modified": True}
        new.content = render("files", new.meta)
    elif (
        new.type == "commands"
        and _NARROW.search(" " + new.meta.get("command", "") + " ")
        and not _NARROW.search(" " + old.meta.get("command", "") + " ")
    ):
        old.updated = new.updated
        return old
    return new


class _Collector:
    """Gathers entries for one batch of facts, keyed, with `combine` for repeated keys."""

    def __init__(self, root: Path | None, source: str, now: float) -> None:
        self.root, self.source, self.now = root, source, now
        self.entries: dict[str, MemoryEntry] = {}
        self.paths: list[str] = []

    def put(self, key: str, entry_type: str, meta: dict[str, Any], tags: list[str]) -> None:
        entry = MemoryEntry(
            key=key,
            type=entry_type,
            content=render(entry_type, meta),
            source=self.source,
            created=self.now,
            updated=self.now,
            tags=tags,
            meta=meta,
        )
        old = self.entries.get(key)
        self.entries[key] = combine(old, entry) if old else entry

    def file_fact(self, fact: Fact, kind: str) -> None:
        # a shell fact's target is its command line, never a path
        path = project_path(fact.path or (None if fact.command else fact.target), self.root)
        if path is None or is_noise(path):
            return
        self.paths.append(path)
        details = fact.details or {}
        lines = details.get("lines")
        if not isinstance(lines, int):
            lines = _line_count(self.root, path)
        if lines is not None and lines < MIN_LINES:
            return  # tiny, or (-1) gone since
        language = details.get("language") or language_of(path)
        symbols = details.get("symbols") or []
        if isinstance(symbols, str):  # one value is one item, never one item per character
            symbols = [s.strip() for s in symbols.split(",") if s.strip()]
        meta = {
            "path": path,
            "language": str(language or ""),
            "lines": lines,
            "modified": kind in ("write", "edit"),
            "symbols": [str(s) for s in symbols][:5],
        }
        self.put(f"file:{path}", "files", meta, [kind])

    def command_fact(self, fact: Fact) -> None:
        command = " ".join((fact.command or fact.target or "").split())
        if not command or len(command) > MAX_COMMAND or _TEMP_ARG.search(command):
            return
        found = classify_command(command)
        first = argvs(command)[:1]
        if found is None and fact.kind in ("test", "build") and first:  # the extractor knew
            found = (fact.kind, program(first[0][0]))
        if found is None:
            return  # not a recognisable project command
        category, tool = found
        meta = {"command": command, "category": category, "tool": tool}
        self.put(f"command:{category}:{tool}", "commands", meta, [category, tool])

    def conventions(self) -> None:
        found: dict[str, tuple[str, str]] = {}  # key -> (text, path it rests on)
        for path in self.paths:
            name = posixpath.basename(path)
            if name in CONFIG_CONVENTIONS:
                key, text = CONFIG_CONVENTIONS[name]
                found.setdefault(key, (f"{text} ({path})", path))
            for pattern, key, text in TEST_LAYOUTS:
                if pattern.search(path):
                    folder = posixpath.dirname(path) or "."
                    found.setdefault(key, (text.format(dir=folder), folder))
        if self.root is not None:
            for key, value in root_conventions(self.root).items():
                found.setdefault(key, value)
        for key, (text, path) in found.items():
            self.put(f"convention:{key}", "conventions", {"text": text, "path": path}, [key])


def root_conventions(root: Path) -> dict[str, tuple[str, str]]:
    """Linter, formatter and test configs in the project root (stat calls and pyproject.toml)."""
    found: dict[str, tuple[str, str]] = {}
    for name, (key, text) in CONFIG_CONVENTIONS.items():
        if (root / name).is_file():
            found.setdefault(key, (f"{text} ({name})", name))
    for folder in ("tests", "test"):
        if next((root / folder).glob("test_*.py"), None) is not None:
            found["tests-layout"] = (f"Python tests in {folder}/ as test_*.py", folder)
            break
    pyproject = root / "pyproject.toml"
    if pyproject.is_file():
        import tomllib

        try:  # a project's file: size-capped, and 100k nested brackets are no crash
            tools = tomllib.loads(read_capped_text(pyproject, CONFIG)).get("tool", {})
        except (OSError, ValueError, RecursionError):
            tools = {}
        for name, (key, text) in PYPROJECT_TOOLS.items():
            if isinstance(tools, dict) and name in tools:
                found.setdefault(key, (f"{text} (pyproject.toml)", "pyproject.toml"))
    return found


def facts_to_entries(
    facts: Iterable[Fact], root: Path | None = None, source: str = "", now: float | None = None
) -> list[MemoryEntry]:
    """Memory entries for a batch of facts, in order; failures, noise and unknown tools skipped."""
    out = _Collector(root.resolve() if root else None, source, time.time() if now is None else now)
    seen_any = False
    for fact in facts:
        kind = fact_kind(fact)
        if kind is None or kind in SKIPPED_KINDS or not succeeded(fact):
            continue
        seen_any = True
        if kind in FILE_KINDS:
            out.file_fact(fact, kind)
        elif kind in COMMAND_KINDS:
            out.command_fact(fact)
    if seen_any:
        out.conventions()
    return list(out.entries.values())


def unmark_modified(store: MemoryStore, paths: Sequence[str]) -> int:
    """Files put back by `/undo` or `/rewind` are no longer "modified"; how many entries changed."""
    keys = {f"file:{p}" for p in paths}

    def apply(cur: dict[str, MemoryEntry]) -> int:
        changed = 0
        for key in sorted(keys & cur.keys()):
            entry = cur[key]
            if entry.type == "files" and entry.meta.get("modified"):
                entry.meta = {**entry.meta, "modified": False}
                entry.content = render("files", entry.meta)
                changed += 1
        return changed

    return store.file("project").change(apply) if keys else 0
