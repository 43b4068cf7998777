"""The input line: history in the Unicum home, completion, key bindings, and tool questions."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings

from ui.repl.status_bar import STYLE, StatusBar
from ui.terminal import styled
from ui.words import Strings

PROMPT = "unicum> "
CONTINUATION = "… "


class ReplCompleter(Completer):
    """Slash commands at the start of the line; otherwise file paths relative to the workspace."""

    def __init__(
        self, commands: Callable[[], Iterable[str]], workspace: Callable[[], Path]
    ) -> None:
        self.commands = commands
        self.workspace = workspace

    def get_completions(self, document: Document, complete_event) -> Iterable[Completion]:
        text = document.text_before_cursor
        if text.startswith("/") and " " not in text:
            for name in sorted(self.commands()):
                if name.startswith(text):
                    yield Completion(name, start_position=-len(text))
            return
        word = text.split()[-1] if text and not text[-1].isspace() else ""
        dirs_only = text.startswith("/cd ")
        yield from self._paths(word.removeprefix("@"), dirs_only)  # `@path` mentions too

    def _paths(self, word: str, dirs_only: bool) -> Iterable[Completion]:
        head, _, stem = word.rpartition("/")
        base = (
            Path(os.path.expanduser(head or "."))
            if head.startswith(("~", "/"))
            else self.workspace() / (head or ".")
        )
        try:
            entries = sorted(os.scandir(base), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            if not entry.name.startswith(stem) or (entry.name.startswith(".") and not stem):
                continue
            is_dir = entry.is_dir()
            if dirs_only and not is_dir:
                continue
            name = entry.name + ("/" if is_dir else "")
            yield Completion(name, start_position=-len(stem), display=name)


def key_bindings(
    toggle_plan: Callable[[], None] | None = None,
    on_paste: Callable[[], tuple[str, str]] | None = None,
) -> KeyBindings:
    kb = KeyBindings()

    @kb.add("c-v")
    def _paste(event) -> None:
        """A clipboard image (saved, its path in the line) or text (ui/repl/clipboard.py)."""
        if on_paste is None:
            return
        text, line = on_paste()
        if line:
            from prompt_toolkit.application import run_in_terminal

            run_in_terminal(lambda: print(line, flush=True))
        if text:
            event.current_buffer.insert_text(text)

    @kb.add("s-tab")
    def _plan(event) -> None:
        """The next permission mode: default → accept edits → plan (the prompt shows it)."""
        if toggle_plan is not None:
            toggle_plan()
            event.app.invalidate()

    @kb.add("escape", "enter")
    def _newline(event) -> None:
        event.current_buffer.insert_text("\n")

    @kb.add("c-c")
    def _interrupt(event) -> None:
        """Clear a non-empty line; on an empty one, report Ctrl-C to the loop."""
        buffer = event.current_buffer
        if buffer.text:
            buffer.reset()
        else:
            event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    return kb


def make_session(
    home: Path,
    commands: Callable[[], Iterable[str]],
    workspace: Callable[[], Path],
    toggle_plan: Callable[[], None] | None = None,
    on_paste: Callable[[], tuple[str, str]] | None = None,
    bar: StatusBar | None = None,
) -> PromptSession:
    try:
        home.mkdir(parents=True, exist_ok=True)
        history = FileHistory(str(home / "history"))
    except OSError:
        history = InMemoryHistory()
    return PromptSession(
        history=history,
        key_bindings=key_bindings(toggle_plan, on_paste),
        completer=ReplCompleter(commands, workspace),
        complete_while_typing=False,
        multiline=False,
        prompt_continuation=lambda width, n, soft: CONTINUATION.rjust(width),
        enable_history_search=False,
        bottom_toolbar=bar.toolbar if bar is not None else None,
        style=STYLE,
        refresh_interval=bar.every if bar is not None and bar.every else 0,
    )


class ReplPrompter:
    """Tools ask the person at the keyboard through this (`tools.base.Prompter`). Questions are
    shown in the UI language, workspace paths relative; `waited` adds up the seconds spent
    waiting for answers (so `--time` does not count them as the tool's)."""

    interactive = True

    def __init__(
        self,
        strings: Strings,
        pause: Callable[[], None],
        write: Callable[[str], None],
        approve_all: bool = False,
        workspace: Callable[[], Path] | None = None,
        on_wait: Callable[[], None] | None = None,
        on_diff: Callable[[], None] | None = None,
        refuse_all: bool = False,
    ) -> None:
        self.s = strings
        self.refuse_all = refuse_all  # `--permission-mode dontAsk`: no question is asked
        self.on_diff = on_diff  # a diff was shown with a question (the renderer shows it once)
        self.on_wait = on_wait  # an approval waits (notifications)
        self.approve_all = approve_all  # --yes
        self.pause = pause  # stops spinners before asking
        self.write = write
        self.workspace = workspace
        self.waited = 0.0
        self._session: PromptSession | None = None

    def _input(self, message: str) -> str:
        """One answer; Ctrl-D means no answer (Ctrl-C still interrupts the task)."""
        if self._session is None:
            self._session = PromptSession()
        started = time.monotonic()
        try:
            return self._session.prompt(message).strip()
        except EOFError:
            return ""
        finally:
            self.waited += time.monotonic() - started

    def shown(self, question: str) -> str:
        """The question as the person reads it: paths relative, in the UI language."""
        from ui.words import relative_paths

        return self.s.line(relative_paths(question, self.workspace() if self.workspace else None))

    def confirm(self, question: str, detail: str = "", edits: bool = False) -> str:
        """The diff (or why) and the question, then one key (`ui.views.approval`)."""
        from ui.views import ask_approval, read_key

        if self.approve_all:
            return "y"
        if self.refuse_all:
            return "n"
        self.pause()
        if self.on_wait is not None:
            self.on_wait()

        def key(message: str, keys: tuple[str, ...]) -> str:
            started = time.monotonic()
            try:
                return read_key(message, keys)
            finally:
                self.waited += time.monotonic() - started

        if detail and self.on_diff is not None:
            self.on_diff()
        return ask_approval(
            self.s, self.shown(question), detail, self.write, self._input, key, edits=edits
        )

    def ask(self, question: str, choices: list[str]) -> str:
        if self.refuse_all:
            return ""  # dontAsk: the model gets no answer rather than a wait
        self.pause()
        self.write(styled(self.shown(question), "bold"))
        for n, choice in enumerate(choices, 1):
            self.write(f"  {n}. {choice}")
        answer = self._input(self.s.t("number or answer: ") if choices else "> ")
        if answer.isdigit() and 1 <= int(answer) <= len(choices):
            return choices[int(answer) - 1]
        return answer
