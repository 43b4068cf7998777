"""The code map's share of the project walk: source files only, with hard caps."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from core.codemap.langs import EXTENSIONS
from my_agent.walk import walk

MAX_FILE_BYTES = 1_000_000
MAX_FILES = 20_000
MAX_WALK_SECONDS = 5.0
BUNDLED = (".min.js", ".bundle.js")  # generated code: many bytes, no names worth mapping
CLOCK_EVERY = 256  # files between deadline checks


@dataclass
class WalkResult:
    files: dict[str, tuple[int, int]] = field(default_factory=dict)  # rel path → (mtime_ns, size)
    truncated: str = ""  # why the walk stopped early, if it did


def is_source(name: str) -> bool:
    """A file the code map parses, judged by its name alone."""
    dot = name.rfind(".")
    if dot <= 0:
        return False
    ext = name[dot:].lower()
    if ext not in EXTENSIONS or not name[:dot].strip("."):  # ".py": no extension to splitext
        return False
    return ext != ".js" or not name.endswith(BUNDLED)


def walk_sources(
    root: Path, max_files: int = MAX_FILES, max_seconds: float = MAX_WALK_SECONDS
) -> WalkResult:
    """Every indexable project file under `root` with (mtime_ns, size); stops at the caps."""
    result = WalkResult()
    deadline = time.monotonic() + max_seconds
    for n, entry in enumerate(walk(root, want=is_source), 1):
        if entry.size <= MAX_FILE_BYTES:
            result.files[entry.rel] = (entry.mtime_ns, entry.size)
        if len(result.files) >= max_files:
            result.truncated = f"stopped at {max_files} files"
            break
        if n % CLOCK_EVERY == 0 and time.monotonic() > deadline:
            result.truncated = f"stopped after {max_seconds:.0f} s of walking"
            break
    return result
