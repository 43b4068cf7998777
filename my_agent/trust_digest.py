"""What a project can make the next session run: its extension files (`.mcp.json`,
`.unicum/`, `.claude/`, `.agents/`, `.codex/`), fingerprinted file by file when the user
trusts the folder. A file added or changed since then is named, and the project's extensions
stay unloaded until the user confirms (`trusted.json`'s `extensions`)."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

EXTENSION_FILES = (".mcp.json",)
EXTENSION_DIRS = (".unicum", ".claude", ".agents", ".codex")
MAX_FILES, MAX_DEPTH, MAX_HASHED = 2000, 8, 4 * 1024 * 1024


def fingerprint(workspace: Path) -> dict[str, str]:
    """{relative path: sha256 (of the first MAX_HASHED bytes and the size)} of the
    extension files; a symlink counts by its target's name, a file beyond the caps by its size."""
    root = workspace.expanduser().resolve()
    found: dict[str, str] = {}
    paths = [root / name for name in EXTENSION_FILES]
    for name in EXTENSION_DIRS:
        paths += _walk(root / name)
    for path in paths[:MAX_FILES]:
        digest = _digest(path)
        if digest:
            found[str(path.relative_to(root))] = digest
    return found


def _walk(folder: Path) -> list[Path]:
    out: list[Path] = []
    if not folder.is_dir() or folder.is_symlink():
        return out
    for dirpath, dirnames, filenames in os.walk(folder):
        if len(Path(dirpath).relative_to(folder).parts) >= MAX_DEPTH:
            dirnames[:] = []
        dirnames.sort()
        out += [Path(dirpath, f) for f in sorted(filenames)]
        if len(out) > MAX_FILES:
            break
    return out


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    try:
        if path.is_symlink():
            h.update(b"link:" + os.readlink(path).encode())
            return h.hexdigest()
        if not path.is_file():
            return ""
        size = path.stat().st_size
        h.update(f"{size}:".encode())
        with path.open("rb") as f:
            h.update(f.read(MAX_HASHED))
    except OSError:
        return ""
    return h.hexdigest()


def changed(before: dict[str, str], now: dict[str, str]) -> list[str]:
    """Files added or changed since `before` (a removed file loads nothing: not named)."""
    return sorted(p for p, d in now.items() if before.get(p) != d)
