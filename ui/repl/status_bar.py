"""The prompt's bottom toolbar: the last status text (`ui.repl.status_line`), worked out again
in a thread when asked — the session opened, a turn ended, the mode changed, a timer — and the
prompt redrawn when it changed. The toolbar itself only reads it: nothing runs per key."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from prompt_toolkit.formatted_text import ANSI
from prompt_toolkit.styles import Style

STYLE = Style.from_dict({"bottom-toolbar": "noreverse"})  # the command's own colours read


class StatusBar:
    def __init__(self, compute: Callable[[], str], every: float = 0.0) -> None:
        self.compute = compute
        self.every = every  # `refreshInterval` seconds, or 0
        self.redraw: Callable[[], None] = lambda: None
        self.text = ""
        self._said = ""  # what was printed above the prompt (no toolbar in this terminal)
        self._lock = threading.Lock()
        self._running = self._again = False
        self._last = 0.0

    def toolbar(self) -> Any:
        """prompt_toolkit's `bottom_toolbar`: the last text (a timer's turn starts a refresh)."""
        if self.every and time.monotonic() - self._last >= self.every:
            self.refresh()
        return ANSI(self.text) if self.text else ""

    def refresh(self) -> None:
        """Work the text out again in the background (a refresh asked meanwhile runs after)."""
        with self._lock:
            if self._running:
                self._again = True
                return
            self._running = True
            self._last = time.monotonic()
        threading.Thread(target=self._work, name="unicum-status", daemon=True).start()

    def _work(self) -> None:
        while True:
            try:
                text = self.compute()
            except Exception:  # a session half open, a settings file mid-write: next time
                text = self.text
            if text != self.text:
                self.text = text
                self.redraw()
            with self._lock:
                self._last = time.monotonic()
                if not self._again:
                    self._running = False
                    return
                self._again = False

    def before_prompt(self, output: Any, say: Callable[..., None]) -> None:
        """Each prompt: refresh the toolbar; a terminal that does not answer cursor-position
        requests shows no toolbar (prompt_toolkit needs the rows below the cursor), so there
        the line is printed above the prompt when it changed."""
        if getattr(output, "responds_to_cpr", True):
            self.refresh()
            return
        text = self.compute()
        if text and text != self._said:
            say(text, style="dim")
            self._said = text


def open_bar(repl: Any) -> StatusBar:
    """The REPL's status bar (`repl.status_bar`): Claude Code's statusLine or the built-in."""
    from ui.repl.status_line import refresh_every, status_text

    bar = StatusBar(lambda: status_text(repl), every=refresh_every(repl))
    repl.status_bar = bar
    return bar
