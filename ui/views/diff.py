"""Coloured diffs of what an edit tool changed: the file is read before and after the call."""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ui.words import Strings

if TYPE_CHECKING:
    from rich.console import Console

DIFF_TOOLS = {"write_file", "edit_file", "multi_edit", "replace_in_file", "apply_patch"}
MAX_BYTES = 400_000
MAX_LINES = 60


def _read(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > MAX_BYTES:
            return None
        raw = path.read_bytes()
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


def render_diff(console: Console, snap: tuple[Path, str | None], strings: Strings) -> None:
    from rich.text import Text

    target, before = snap
    after = _read(target)
    if after is None or after == before:
        return
    lines = diff_lines(before, after, target.name)[2:]  # the ---/+++ header adds nothing here
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
