"""The terminal as every REPL prompt reads it while focus reporting is on (`ui.terminal.focus`): the
focus reports taken out of what prompt_toolkit reads. POSIX terminals only: this module is
imported only where `Focus.reporting` turns reporting on."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO

from prompt_toolkit.input.posix_utils import PosixStdinReader
from prompt_toolkit.input.typeahead import store_typeahead
from prompt_toolkit.input.vt100 import Vt100Input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress


class FocusInput(Vt100Input):
    """The terminal as prompt_toolkit reads it, its focus reports taken out by `take_reports`
    (`ui.terminal.focus.Focus.take_reports`: text in, text without the reports out)."""

    def __init__(self, stdin: TextIO, take_reports: Callable[[str], str]) -> None:
        super().__init__(stdin)
        self.stdin_reader = _ReportsOut(stdin.fileno(), stdin.encoding, take_reports)

    def type_ahead(self, text: str) -> None:
        """Keys read while no prompt was up: the next prompt starts with them."""
        keys: list[KeyPress] = []
        parser = Vt100Parser(keys.append)
        parser.feed(text)
        parser.flush()
        store_typeahead(self, keys)


class _ReportsOut(PosixStdinReader):
    def __init__(self, fd: int, encoding: str, take_reports: Callable[[str], str]) -> None:
        super().__init__(fd, encoding=encoding)
        self.take_reports = take_reports

    def read(self, count: int = 1024) -> str:
        return self.take_reports(super().read(count))
