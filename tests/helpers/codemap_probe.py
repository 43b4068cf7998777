"""A small project written to a temporary folder and indexed: the code-map probes' set-up."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from core.codemap import CodeIndex


@contextmanager
def probe(tmp_path: Path, files: dict[str, str], name: str = "p") -> Iterator[CodeIndex]:
    """`files` (relative path → text) under `tmp_path/name`, indexed and refreshed; closed after."""
    root = tmp_path / name
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    idx = CodeIndex(root, tmp_path / f"{name}.db")
    try:
        idx.refresh()
        yield idx
    finally:
        idx.close()
