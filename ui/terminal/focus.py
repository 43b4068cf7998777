"""Whether the terminal has focus, from xterm's focus reporting: after `CSI ?1004h` the
terminal sends `ESC [ I` when its window gains focus and `ESC [ O` when it loses it (xterm,
iTerm2, kitty, WezTerm, foot, Ghostty, Windows Terminal, VS Code; tmux with `focus-events on`).

prompt_toolkit's parser knows neither report: it would type `[O` into the line, or take the
ESC for the Esc key and answer an approval "n". So every prompt reads through
`ui.terminal.focus_input.FocusInput`, which takes the reports out. While the REPL is busy (a task, a
command) nothing reads the terminal: `Focus.busy` turns echo and line editing off (Ctrl-C
still interrupts) so a report does not print as `^[[O`, and `Focus.away` reads what waits
when a notification must decide; other keys typed meanwhile reach the next prompt."""

from __future__ import annotations

import codecs
import os
import re
import select
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ui.terminal.focus_input import FocusInput

REPORTING_ON, REPORTING_OFF = "\x1b[?1004h", "\x1b[?1004l"
_REPORT = re.compile("\x1b\\[([IO])")


class Focus:
    """The terminal's focus: True, False, or None while it has never said."""

    def __init__(self) -> None:
        self.focused: bool | None = None
        self.input: FocusInput | None = None  # while reporting: the prompts' input
        self._busy_fd: int | None = None
        self._decode = codecs.getincrementaldecoder("utf-8")("replace")

    def take_reports(self, text: str) -> str:
        """`text` without its focus reports; the last one says where the focus is."""
        found = _REPORT.findall(text)
        if not found:
            return text
        self.focused = found[-1] == "I"
        return _REPORT.sub("", text)

    def away(self) -> bool | None:
        """True when the terminal last said it lost focus, None when it never said."""
        if self._busy_fd is not None:
            self._read_waiting(self._busy_fd)
        return None if self.focused is None else not self.focused

    @contextmanager
    def reporting(self) -> Iterator[None]:
        """For the REPL's life: reports on, every prompt reading through `FocusInput`;
        reports off at the end, however it ends."""
        if os.name != "posix" or not (sys.stdin.isatty() and sys.stdout.isatty()):
            yield
            return
        from prompt_toolkit.application.current import create_app_session

        from ui.terminal.focus_input import FocusInput

        self.input = FocusInput(sys.stdin, self.take_reports)
        _write(REPORTING_ON)
        try:
            with create_app_session(input=self.input):
                yield
        finally:
            _write(REPORTING_OFF)
            self.input = None

    @contextmanager
    def busy(self) -> Iterator[None]:
        """While a line is handled: no echo and no line editing (signals stay on)."""
        if self.input is None:
            yield
            return
        import termios

        fd = self.input.fileno()
        saved = termios.tcgetattr(fd)
        quiet = [*saved[:6], list(saved[6])]
        quiet[3] &= ~(termios.ECHO | termios.ICANON)
        quiet[6][termios.VMIN], quiet[6][termios.VTIME] = 1, 0
        termios.tcsetattr(fd, termios.TCSANOW, quiet)  # NOW: what was typed stays
        self._busy_fd = fd
        try:
            yield
        finally:
            self._busy_fd = None
            termios.tcsetattr(fd, termios.TCSANOW, saved)

    def _read_waiting(self, fd: int) -> None:
        """Read what the terminal sent meanwhile: reports count, keys go to the next prompt."""
        data = b""
        try:
            while select.select([fd], [], [], 0)[0] and (chunk := os.read(fd, 4096)):
                data += chunk
        except OSError:  # the terminal went away: nothing more to read
            pass
        text = self.take_reports(self._decode.decode(data))
        if text and self.input is not None:
            self.input.type_ahead(text)


def _write(sequence: str) -> None:
    sys.stdout.write(sequence)
    sys.stdout.flush()
