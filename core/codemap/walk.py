"""The cheap stat walk: source files under a folder, honouring .gitignore, with hard caps."""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from core.codemap.langs import EXTENSIONS

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        "site-packages",
        ".idea",
        ".vscode",
        "bower_components",
        ".next",
        ".cache",
    }
)
MAX_FILE_BYTES = 1_000_000
MAX_FILES = 20_000
MAX_WALK_SECONDS = 5.0


@dataclass
class WalkResult:
    files: dict[str, tuple[int, int]] = field(default_factory=dict)  # rel path → (mtime_ns, size)
    truncated: str = ""  # why the walk stopped early, if it did


def _translate(pat: str) -> str:
    out, i = [], 0
    while i < len(pat):
        if pat.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pat.startswith("**", i):
            out.append(".*")
            i += 2
        elif pat[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pat[i] == "?":
            out.append("[^/]")
            i += 1
        elif pat[i] == "[" and "]" in pat[i + 2 :]:
            close = pat.index("]", i + 2)
            body = pat[i + 1 : close]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
            i = close + 1
        elif pat[i] == "\\" and i + 1 < len(pat):
            out.append(re.escape(pat[i + 1]))
            i += 2
        else:
            out.append(re.escape(pat[i]))
            i += 1
    return "".join(out)


def parse_gitignore(text: str) -> list[tuple[re.Pattern[str], bool, bool]]:
    """Rules as (regex on a path relative to the .gitignore's folder, negated, dirs only)."""
    rules = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if not line or line.startswith("#"):
            continue
        negate = line.startswith("!")
        line = line[1:] if negate else line
        dir_only = line.endswith("/")
        line = line.rstrip("/")
        if not line:
            continue
        anchored = "/" in line
        body = _translate(line.lstrip("/"))
        regex = ("^" if anchored else "^(?:.*/)?") + body + "(?:/.*)?$"
        try:
            rules.append((re.compile(regex), negate, dir_only))
        except re.error:
            continue
    return rules


def _ignored(rules_stack: list[tuple[str, list]], rel: str, is_dir: bool) -> bool:
    verdict = False
    for base, rules in rules_stack:
        sub = rel[len(base) + 1 :] if base else rel
        for regex, negate, dir_only in rules:
            if dir_only and not is_dir:
                continue
            if regex.match(sub):
                verdict = not negate
    return verdict


def _load_rules(folder: str, names: tuple[str, ...]) -> list:
    rules: list = []
    for name in names:
        try:
            with open(os.path.join(folder, name), encoding="utf-8", errors="replace") as fh:
                rules += parse_gitignore(fh.read())
        except OSError:
            continue
    return rules


def walk_sources(
    root: Path, max_files: int = MAX_FILES, max_seconds: float = MAX_WALK_SECONDS
) -> WalkResult:
    """Every indexable source file under `root` with (mtime_ns, size); stops at the caps."""
    result = WalkResult()
    deadline = time.monotonic() + max_seconds
    top = str(root)
    root_rules = _load_rules(top, (".gitignore", os.path.join(".git", "info", "exclude")))
    pending: list[tuple[str, str, list]] = [("", top, [("", root_rules)] if root_rules else [])]
    while pending:
        rel_dir, abs_dir, rules_stack = pending.pop()
        if rel_dir:
            own = _load_rules(abs_dir, (".gitignore",))
            if own:
                rules_stack = rules_stack + [(rel_dir, own)]
        try:
            entries = sorted(os.scandir(abs_dir), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            rel = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name in SKIP_DIRS or (
                        rules_stack and _ignored(rules_stack, rel, True)
                    ):
                        continue
                    if os.path.exists(os.path.join(entry.path, "pyvenv.cfg")):
                        continue
                    pending.append((rel, entry.path, rules_stack))
                    continue
                ext = os.path.splitext(entry.name)[1].lower()
                if ext not in EXTENSIONS or entry.name.endswith((".min.js", ".bundle.js")):
                    continue
                if rules_stack and _ignored(rules_stack, rel, False):
                    continue
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if st.st_size > MAX_FILE_BYTES or not entry.is_file(follow_symlinks=False):
                continue
            result.files[rel] = (st.st_mtime_ns, st.st_size)
            if len(result.files) >= max_files:
                result.truncated = f"stopped at {max_files} files"
                return result
        if time.monotonic() > deadline:
            result.truncated = f"stopped after {max_seconds:.0f} s of walking"
            return result
    return result
