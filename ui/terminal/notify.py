"""Desktop notifications from the terminal: a bell and OSC 9 / OSC 777 when a task ends or an
approval waits while the terminal is not focused, and the user's `Notification` hook.

Focus comes from the terminal's focus reports (`ui.terminal.focus`). A terminal that never reports
(or a multiplexer that drops the reports) leaves it unknown: then "the person looked away" is
judged by time, a task that ran at least `after_seconds` notifies."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from core.agent import AgentHooks, LiveSession, TaskResult
from my_agent.errors import ConfigError
from my_agent.home import read_user_config
from ui.words import Strings

# Claude Code's `notification_type`s (a Notification hook's matcher names them)
PERMISSION, IDLE = "permission_prompt", "idle_prompt"

if TYPE_CHECKING:
    from ui.terminal.focus import Focus

AFTER_SECONDS = 10.0


@dataclass(frozen=True)
class NotifyConfig:
    bell: bool = True
    osc: bool = True
    after_seconds: float = AFTER_SECONDS

    @classmethod
    def from_user_config(cls) -> NotifyConfig:
        """`notifications` in config.json: {"bell": false, "osc": false, "after_seconds": 30}."""
        try:
            raw = read_user_config().get("notifications") or {}
        except Exception:  # a broken config.json is reported where the session opens
            raw = {}
        if not isinstance(raw, dict):
            return cls()
        after = raw.get("after_seconds", AFTER_SECONDS)
        if isinstance(after, bool) or not isinstance(after, int | float) or after < 0:
            raise ConfigError(
                f"notifications.after_seconds must be a number of seconds, 0 or more "
                f"(got {after!r}): fix it in config.json"
            )
        return cls(bool(raw.get("bell", True)), bool(raw.get("osc", True)), float(after))


def terminal_notice(message: str, config: NotifyConfig) -> str:
    """The escape sequences for `message` (OSC 9: iTerm2, WezTerm, Windows Terminal; OSC 777:
    rxvt, foot, Ghostty, kitty's notify)."""
    clean = message.replace("\x1b", "").replace("\x07", "").replace(";", ",")
    text = "\a" if config.bell else ""
    if config.osc:
        text += f"\x1b]9;{clean}\x07\x1b]777;notify;Unicum;{clean}\x07"
    return text


class Notifier(AgentHooks):
    """Notifies when a task ends, or an approval waits during one, with the terminal unfocused
    (focus unknown: when the task has run `after_seconds`)."""

    def __init__(
        self,
        strings: Strings,
        session: Callable[[], LiveSession | None] = lambda: None,
        config: NotifyConfig | None = None,
        focus: Focus | None = None,
        stream: TextIO | None = None,
    ) -> None:
        self.s = strings
        self.session = session  # its `Notification` user hooks hear every notification
        self.config = config or NotifyConfig.from_user_config()
        self.focus = focus
        self.stream = stream or sys.stdout  # where the bell and OSC go
        self.started: float | None = None

    def on_task_start(self, task: str) -> None:
        self.started = time.monotonic()

    def on_task_end(self, result: TaskResult) -> None:
        if self._looked_away():
            self.notify(
                self.s.t("Unicum: task finished ({seconds}s)", seconds=round(result.total_seconds)),
                IDLE,
            )
        self.started = None

    def approval_waits(self) -> None:
        if self._looked_away():
            self.notify(self.s.t("Unicum: waiting for your approval"), PERMISSION)

    def _looked_away(self) -> bool:
        if self.started is None:
            return False
        away = self.focus.away() if self.focus is not None else None
        if away is not None:
            return away
        return time.monotonic() - self.started >= self.config.after_seconds

    def notify(self, message: str, kind: str) -> None:
        self.ring(message)
        self.tell_hooks(message, kind)

    def ring(self, message: str) -> None:
        """The bell and OSC 9/777 on the terminal."""
        self.stream.write(terminal_notice(message, self.config))
        self.stream.flush()

    def tell_hooks(self, message: str, kind: str) -> None:
        live = self.session()
        if live is not None and live.user_hooks is not None:
            live.user_hooks.notify(message, kind)


class HeadlessNotifier(Notifier):
    """`-p`: the `Notification` hooks hear every task's end; the bell and OSC go to stderr,
    only when it is a terminal (stdout, the answer or its JSON, never gets them) and the task
    ran at least `after_seconds` (nobody reports focus here)."""

    def __init__(
        self,
        strings: Strings,
        session: Callable[[], LiveSession | None],
        config: NotifyConfig | None = None,
        stream: TextIO | None = None,
    ) -> None:
        super().__init__(strings, session, config, stream=stream or sys.stderr)

    def on_task_end(self, result: TaskResult) -> None:
        message = self.s.t(
            "Unicum: task finished ({seconds}s)", seconds=round(result.total_seconds)
        )
        if self.stream.isatty() and result.total_seconds >= self.config.after_seconds:
            self.ring(message)
        self.tell_hooks(message, IDLE)
