"""Which files belong to the project: .gitignore files (nested), .git/info/exclude and a skip
table. Search, listing and the code map all walk with this one reader, so they agree."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from my_agent.capped import CONFIG, read_capped_text

if TYPE_CHECKING:
    import pathspec

SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "node_modules",
        "bower_components",
        "__pycache__",
        ".venv",
        "venv",
        "site-packages",
        ".eggs",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".cache",
        ".next",
        ".idea",
        ".vscode",
    }
)
VENV_MARKER = "pyvenv.cfg"  # a folder holding it is a virtualenv, whatever its name
EXCLUDE = os.path.join(".git", "info", "exclude")
MAX_FILE_BYTES = 1024 * 1024  # bigger files are skipped by searches (same as rg --max-filesize 1M)
_NAMED_GROUP = re.compile(r"\(\?P<\w+>")


@dataclass(frozen=True)
class IgnoreFile:
    """One ignore file, compiled once: `quick` says in one regex call whether any of its
    patterns could match, so most paths never reach pathspec's pattern-by-pattern check."""

    spec: pathspec.GitIgnoreSpec
    quick: re.Pattern[str] | None

    def verdict(self, path: str) -> bool | None:
        """True: ignored, False: re-included (`!`), None: no pattern matches."""
        if self.quick is not None and self.quick.match(path) is None:
            return None
        return self.spec.check_file(path).include


Rules = tuple[tuple[str, IgnoreFile], ...]  # (folder prefix "a/b/", its rules), outermost first


@dataclass(slots=True)
class Entry:
    rel: str  # path relative to the walk's base, with "/" separators
    is_dir: bool
    size: int
    depth: int  # 1 for entries directly in the start folder
    mtime_ns: int = 0


def load_ignore(path: str) -> IgnoreFile | None:
    import pathspec  # deferred: 30 ms to import, and most folders have no ignore file

    try:
        text = read_capped_text(path, CONFIG, "replace")
        spec = pathspec.GitIgnoreSpec.from_lines(text.splitlines())
    except (OSError, ValueError):
        return None
    if not spec.patterns:
        return None
    return IgnoreFile(spec, _quick(spec))


def _quick(spec: pathspec.GitIgnoreSpec) -> re.Pattern[str] | None:
    """One regex that matches where any pattern's regex would (pathspec searches each; all
    gitignore patterns are anchored with `^`, else there is no shortcut)."""
    sources = [
        _NAMED_GROUP.sub("(?:", p.regex.pattern)  # type: ignore[attr-defined]
        for p in spec.patterns
        if p.include is not None
    ]
    if not all(source.startswith("^") for source in sources):
        return None
    try:
        return re.compile("^(?:" + "|".join(s[1:] for s in sources) + ")" if sources else "(?!)")
    except re.error:
        return None  # check every path the slow way


def ignored(rules: Rules, rel: str, is_dir: bool) -> bool:
    """Git's verdict: the deepest ignore file with a matching pattern decides."""
    verdict = False
    for prefix, rule in rules:
        found = rule.verdict(rel[len(prefix) :] + ("/" if is_dir else ""))
        if found is not None:
            verdict = found
    return verdict


def skipped_dir(base: str, rel: str, name: str) -> bool:
    """Folders no project walk enters: tool caches, dependencies, virtualenvs."""
    return name in SKIP_DIRS or os.path.exists(os.path.join(base, rel, VENV_MARKER))


def rules_for(base: Path | str, start: str = "") -> Rules:
    """The rules in force inside `start` from the folders above it, `base` included (`start`'s
    own files are read when the walk enters it)."""
    rules: Rules = ()
    parts = start.split("/") if start else []
    for k in range(len(parts)):
        rules = _own_rules(str(base), "/".join(parts[:k]) + "/" if k else "", rules)
    return rules


def _own_rules(base: str, prefix: str, rules: Rules) -> Rules:
    """`rules` plus the folder's own: .git/info/exclude under its .gitignore, as git and rg rank
    them (a deeper folder's rules outrank both)."""
    for name in (EXCLUDE, ".gitignore"):
        own = load_ignore(os.path.join(base, prefix, name))
        if own is not None:
            rules += ((prefix, own),)
    return rules


def outside_venvs(base: Path | str, start: str = "") -> Callable[[str], bool]:
    """A test on base-relative paths under `start`: False inside a virtualenv folder, for
    listers (rg) that skip folders by name only."""
    seen: dict[str, bool] = {}

    def inside(folder: str) -> bool:
        if not folder or (start + "/").startswith(folder + "/"):  # `start` or above it
            return False
        if folder not in seen:
            seen[folder] = inside(folder.rpartition("/")[0]) or os.path.exists(
                os.path.join(base, folder, VENV_MARKER)
            )
        return seen[folder]

    return lambda rel: not inside(rel.rpartition("/")[0])


def walk(
    base: Path,
    start: str = "",
    max_depth: int | None = None,
    dirs: bool = False,
    want: Callable[[str], bool] | None = None,
) -> Iterator[Entry]:
    """Files (and folders when `dirs`) under `start`, in path order. Ignored entries, skipped
    folders and symlinks are left out; `want`, when given, picks files by name before the
    (dearer) ignore check."""
    top = str(base)
    # one frame per open folder: its sorted entries, its path prefix, its rules and depth
    stack = [_open(top, start, rules_for(base, start), 1)]
    while stack:
        entries, prefix, rules, depth = stack[-1]
        for entry in entries:  # an iterator: a frame resumes where it left off
            rel = prefix + entry.name
            if entry.is_dir(follow_symlinks=False):
                if skipped_dir(top, rel, entry.name) or (rules and ignored(rules, rel, True)):
                    continue
                if dirs:
                    yield Entry(rel, True, 0, depth)
                if max_depth is None or depth < max_depth:
                    stack.append(_open(top, rel, rules, depth + 1))
                    break
            elif (want is None or want(entry.name)) and not (rules and ignored(rules, rel, False)):
                try:
                    if not entry.is_file(follow_symlinks=False):
                        continue
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                yield Entry(rel, False, st.st_size, depth, st.st_mtime_ns)
        else:
            stack.pop()


Frame = tuple[Iterator[os.DirEntry[str]], str, Rules, int]


def _open(base: str, rel_dir: str, rules: Rules, depth: int) -> Frame:
    """A folder's entries (symlinks left out) in the order of their full paths, and the
    rules in force inside it."""
    try:
        with os.scandir(os.path.join(base, rel_dir) if rel_dir else base) as it:
            # "name/" for folders: depth-first order is then the order of the full path strings
            keyed = sorted(
                ((e.name + "/" if e.is_dir(follow_symlinks=False) else e.name), e)
                for e in it
                if not e.is_symlink()
            )
    except OSError:
        keyed = []
    keys, entries = zip(*keyed, strict=True) if keyed else ((), ())
    prefix = rel_dir + "/" if rel_dir else ""
    if ".gitignore" in keys or ".git/" in keys:
        rules = _own_rules(base, prefix, rules)
    return iter(entries), prefix, rules, depth
