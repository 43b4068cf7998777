"""Plain styled lines and a rich Console created on first use, so the prompt draws before rich
is imported (rich then loads in the background)."""

from __future__ import annotations

import os
import sys
from typing import Any

ANSI = {"bold": "1", "dim": "2", "red": "31", "green": "32", "yellow": "33", "cyan": "36"}


def styled(text: str, style: str = "", stream: Any = None) -> str:
    """`text` wrapped in ANSI codes for `style` ("bold", "dim yellow", ...) on a colour tty."""
    stream = stream or sys.stdout
    codes = [ANSI[s] for s in style.split() if s in ANSI]
    if not codes or os.environ.get("NO_COLOR") or not stream.isatty():
        return text
    return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"


class LazyConsole:
    """Stands in for `rich.console.Console`; the real one is built at the first attribute use."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._real = None

    @property
    def real(self):
        if self._real is None:
            from rich.console import Console

            self._real = Console(**self._options)
        return self._real

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)
