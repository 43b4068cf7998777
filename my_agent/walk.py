"""Which files the search and listing tools look at: .gitignore rules plus a skip table."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

SKIP_DIRS = frozenset(
    {
        ".git",
        "node_modules",
        ".venv",
        "venv",
        "__pycache__",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".hg",
        ".svn",
        ".eggs",
        "site-packages",
    }
)
MAX_FILE_BYTES = 1024 * 1024  # bigger files are skipped by searches (same as rg --max-filesize 1M)

Rules = tuple[
    tuple[str, object], ...
]  # (folder prefix "a/b/", compiled .gitignore), outermost first


@dataclass
class Entry:
    rel: str  # path relative to the walk's base, with "/" separators
    is_dir: bool
    size: int
    depth: int  # 1 for entries directly in the start folder


def load_gitignore(path: str) -> object | None:
    import pathspec

    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return pathspec.GitIgnoreSpec.from_lines(fh.read().splitlines())
    except (OSError, ValueError):
        return None


def ignored(rules: Rules, rel: str, is_dir: bool) -> bool:
    """Git's verdict: the deepest .gitignore with a matching pattern decides."""
    verdict = False
    for prefix, spec in rules:
        result = spec.check_file(rel[len(prefix) :] + ("/" if is_dir else ""))  # type: ignore[attr-defined]
        if result.include is not None:
            verdict = result.include
    return verdict


def walk(
    base: Path, start: str = "", max_depth: int | None = None, dirs: bool = False
) -> Iterator[Entry]:
    """Files (and folders when `dirs`) under `start`, in path order; ignored ones and symlinks
    are skipped, and .gitignore files from `base` down to `start` apply."""
    rules: Rules = ()
    parts = start.split("/") if start else []
    for k in range(len(parts)):
        prefix = "/".join(parts[:k]) + "/" if k else ""
        spec = load_gitignore(os.path.join(base, prefix, ".gitignore"))
        if spec is not None:
            rules += ((prefix, spec),)
    yield from _walk(str(base), start, rules, 1, max_depth, dirs)


def _walk(
    base: str, rel_dir: str, rules: Rules, depth: int, max_depth: int | None, dirs: bool
) -> Iterator[Entry]:
    try:
        with os.scandir(os.path.join(base, rel_dir) if rel_dir else base) as it:
            # "name/" for folders: depth-first order is then the order of the full path strings
            entries = sorted(
                ((e.name + "/" if e.is_dir(follow_symlinks=False) else e.name), e)
                for e in it
                if not e.is_symlink()
            )
    except OSError:
        return
    prefix = rel_dir + "/" if rel_dir else ""
    if any(key == ".gitignore" for key, _ in entries):
        spec = load_gitignore(os.path.join(base, prefix, ".gitignore"))
        if spec is not None:
            rules += ((prefix, spec),)
    for key, entry in entries:
        is_dir = key.endswith("/")
        if is_dir and entry.name in SKIP_DIRS:
            continue
        rel = prefix + entry.name
        if rules and ignored(rules, rel, is_dir):
            continue
        if is_dir:
            if dirs:
                yield Entry(rel, True, 0, depth)
            if max_depth is None or depth < max_depth:
                yield from _walk(base, rel, rules, depth + 1, max_depth, dirs)
        elif entry.is_file(follow_symlinks=False):
            yield Entry(rel, False, entry.stat(follow_symlinks=False).st_size, depth)
