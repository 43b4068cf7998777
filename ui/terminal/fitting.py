"""Lines made of ` · `-separated parts, broken between parts (never mid-word) to fit the
terminal; a part longer than the whole width (a deep folder) keeps its end."""

from __future__ import annotations

import shutil
import unicodedata

SEP = " · "


def cell_len(text: str) -> int:
    """Columns `text` takes (CJK characters take two); no rich import at start-up."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def terminal_width() -> int:
    return shutil.get_terminal_size((80, 24)).columns


def fit(line: str, width: int | None = None) -> str:
    width = width or terminal_width()
    if cell_len(line) <= width:
        return line
    lines: list[str] = []
    for part in line.split(SEP):
        if cell_len(part) > width:
            part = "…" + part[-(width - 1) :]
        if lines and cell_len(lines[-1] + SEP + part) <= width:
            lines[-1] += SEP + part
        else:
            lines.append(part)
    return "\n".join(lines)
