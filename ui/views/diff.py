"""Coloured diffs of what an edit tool changed: the file is read before and after the call."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from my_agent.capped import read_capped
from ui.words import Strings

if TYPE_CHECKING:
    from rich.console import Console

DIFF_TOOLS = {"write_file", "edit_file", "multi_edit", "replace_in_file", "apply_patch"}
MAX_BYTES = 400_000
MAX_LINES = 60


def _read(path: Path) -> str | None:
    try:
        raw = read_capped(path, MAX_BYTES)
    except OSError:
        return None
    for enc in ("utf-8", "gb18030"):
        try:
            return raw.decode(enc)
        except UnicodeDecodeError:
            continue
    return None


def snapshot(workspace: Path, args: dict[str, Any]) -> tuple[Path, str | None] | None:
    """The file an edit is about to change and its text now (None: it does not exist yet)."""
    path = args.get("path") if isinstance(args, dict) else None
    if not isinstance(path, str) or not path.strip():
        return None
    root = workspace.resolve()
    target = (root / Path(path).expanduser()).resolve()
    if target != root and root not in target.parents:
        return None
    return target, _read(target)


def diff_lines(before: str | None, after: str | None, name: str) -> list[str]:
    old = (before or "").splitlines()
    new = (after or "").splitlines()
    return list(difflib.unified_diff(old, new, f"a/{name}", f"b/{name}", n=2, lineterm=""))


def named_hunks(lines: list[str]) -> list[str]:
    """A unified diff's lines without its ---/+++ header, each hunk naming its file
    (`@@ -1,2 +1,2 @@ calc.py`), so a diff of several files reads unambiguously."""
    shown, name = [], ""
    for line in lines:
        if line.startswith(("--- ", "+++ ")):
            path = line[4:].split("\t")[0].strip()
            if path != "/dev/null" and (line.startswith("+++") or not name):
                name = path.removeprefix("a/").removeprefix("b/")
            continue
        if line.startswith("@@") and name:
            line = f"{line.rstrip()} {name}"
        shown.append(line)
    return shown


def render_diff(
    console: Console, snap: tuple[Path, str | None], strings: Strings, root: Path | None = None
) -> None:
    """What an edit changed, its hunks naming the file (relative to `root`)."""
    from rich.text import Text

    target, before = snap
    after = _read(target)
    if after is None or after == before:
        return
    try:
        name = str(target.relative_to(root.resolve())) if root else target.name
    except ValueError:
        name = target.name
    lines = named_hunks(diff_lines(before, after, name))
    shown = lines[:MAX_LINES]
    styles = {"+": "green", "-": "red", "@": "cyan"}
    for line in shown:
        console.print(Text("    " + line, style=styles.get(line[:1], "dim")), soft_wrap=True)
    if len(lines) > len(shown):
        console.print(
            Text(
                "    " + strings.t("… {n} more diff lines", n=len(lines) - len(shown)), style="dim"
            )
        )
