"""The interactive REPL: read a line, run a slash command or a task, show what happens."""

from __future__ import annotations

import argparse
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from core.agent import TranscriptError, check_workspace, find_session
from core.model import resolve_provider
from my_agent.errors import ConfigError, Interrupted, UnicumError
from my_agent.home import check_home, unicum_home
from ui.launch import goodbye, options_from_args
from ui.repl.attach import images_for
from ui.repl.errors import failed_to_open, guarded, internal_error
from ui.terminal import Focus, LazyConsole, fit, styled
from ui.views import Renderer
from ui.words import STOP_WORDS, Strings

if TYPE_CHECKING:
    from core.agent import Agent, LiveSession, TaskResult

WARM_UP_DELAY = 0.15  # let the first prompt draw before the imports compete for the CPU


class SessionFailed(Exception):
    """The session opened in the background could not be opened (carries the cause)."""


def warm_up(
    modules: list[str], then: Callable[[], object] | None = None, delay: float = WARM_UP_DELAY
) -> None:
    """Import the HTTP client and the Markdown renderer in the background, after the prompt is
    up, then run `then` (building the HTTP client, whose TLS set-up is slow too)."""

    def run() -> None:
        time.sleep(delay)
        try:
            for module in modules:
                __import__(module)
            if then is not None:
                then()
        except Exception:
            pass  # the first request does it again and reports a real error

    threading.Thread(target=run, name="unicum-warm-up", daemon=True).start()


class Repl:
    def __init__(self, args: argparse.Namespace, console: LazyConsole, strings: Strings) -> None:
        self.args = args
        self.console = console
        self.s = strings
        self.home = unicum_home()
        self.opts = options_from_args(args)
        self.renderer = Renderer(
            console, strings, lambda: self.agent.tool_context.workspace, self._key_arg
        )
        self.live: LiveSession | None = None
        self._opening: threading.Thread | None = None
        self._open_error: BaseException | None = None
        self.plan = self.opts.permission_mode == "plan"  # ui.commands.plan
        self.cycle_bypass = self.opts.permission_mode == "yolo"  # Shift-Tab reaches it again
        self.focus = Focus()  # the terminal's focus reports (ui.terminal.focus), for notifications
        self.prompt_session = None  # the input line, once the loop runs
        self.status_bar = None  # its bottom toolbar (ui.repl.status_bar)

    @property
    def session(self) -> LiveSession:
        """The open session (waits for one opening in the background)."""
        if self.live is None:
            self.wait_until_open()
        assert self.live is not None
        return self.live

    @property
    def agent(self) -> Agent:
        return self.session.agent

    def open_in_background(self) -> None:
        """Open the session while the prompt draws and the person types: the first line waits
        for it. Start-up notes are shown then."""

        def run() -> None:
            time.sleep(WARM_UP_DELAY)  # let the prompt draw first
            try:
                self.new_session()
            except BaseException as exc:  # reported by wait_until_open, in the main thread
                self._open_error = exc
                return
            if self.status_bar is not None:
                self.status_bar.refresh()  # the session is open: the status line shows
            self.warm_up()

        self._opening = threading.Thread(target=run, name="unicum-open", daemon=True)
        self._opening.start()

    def wait_until_open(self) -> None:
        """Block until the background session is open; show its notes once, or raise."""
        opening, self._opening = self._opening, None
        if opening is None:
            return
        opening.join()
        if self._open_error is not None:
            raise SessionFailed(self._open_error)
        self.notes()

    def warm_up(self) -> None:
        warm_up(
            [
                self.agent.client.adapter.__name__,
                "rich.console",
                "rich.live",
                "rich.markdown",
                "rich.syntax",
                "rich.table",
            ],
            then=self.agent.client.sender,
            delay=0.0,
        )

    def _key_arg(self, tool_name: str) -> str:
        tool = self.agent.registry.tools.get(tool_name)
        return tool.key_arg if tool is not None else ""

    # --- sessions ----------------------------------------------------------------------------
    def new_session(
        self, workspace: Path | None = None, resume: Path | None = None, ending: str = "other"
    ) -> None:
        """Open a fresh session (or a saved one); on failure the current one stays."""
        from core.agent import CommandTools, new_session_id, open_session, resumed_options
        from ui.repl.prompt import ReplPrompter
        from ui.terminal import Notifier

        opts = replace(
            self.opts,
            workspace=workspace or self.opts.workspace,
            session_id=new_session_id() if self.live else self.opts.session_id,
            trusted=self.opts.trusted and workspace is None,  # /cd: the new folder's own trust
        )
        opts = resumed_options(opts, resume)
        notifier = Notifier(self.s, lambda: self.live, focus=self.focus)
        prompter = ReplPrompter(
            self.s,
            self.renderer.stop_live,
            lambda text: print(text),
            approve_all=opts.yes,
            refuse_all=getattr(self.args, "permission_mode", None) == "dontAsk",
            workspace=lambda: self.agent.tool_context.workspace,
            on_wait=notifier.approval_waits,
            on_diff=self.renderer.diff_shown,
        )
        self.command_tools = CommandTools(check_workspace(opts.workspace))
        hooks = [self.renderer, notifier, self.command_tools]
        if self.args.time:
            from ui.views import TimingHooks

            hooks.append(
                TimingHooks(
                    self.s, lambda: self.agent.context_seconds, waited=lambda: prompter.waited
                )
            )
        live = open_session(
            opts, hooks, prompter, resume, debug=self.args.debug, sleep=self.renderer.countdown
        )
        self.end_session(ending)
        # a mode chosen while it opened (Shift-Tab at the prompt) is kept, not the one before
        self.live = live
        self.opts = replace(opts, permission_mode=self.opts.permission_mode)
        self.renderer.waited = lambda: prompter.waited
        self.first_task = True  # its code map may still be building

    def end_session(self, reason: str = "other") -> None:
        """Let the session's services finish (e.g. memory written at the end) and say why not;
        `reason` as Claude Code's SessionEnd hooks are told it."""
        from core.agent import end_session

        if self.live is not None:
            for note in end_session(self.live, reason):
                self.say(note, style="yellow")

    def recap(self) -> None:
        """The last exchange of a resumed session, so the person knows where they are."""
        from ui.repl.recap import show_recap

        show_recap(self)

    # --- screen ------------------------------------------------------------------------------
    def say(self, line: str, style: str = "") -> None:
        """One plain line (no rich needed, so the banner costs nothing at start-up)."""
        print(styled(line, style), flush=True)

    def ask(self, message: str) -> str:
        from prompt_toolkit import PromptSession

        try:
            return PromptSession().prompt(message).strip()
        except (EOFError, KeyboardInterrupt):
            return ""

    def banner(self, provider) -> None:
        """Provider, model and folder (known before the session is open), then the notes."""
        folder = self.opts.workspace.expanduser().resolve()
        names = {"provider": provider.profile.name, "model": provider.model, "folder": folder}
        self.say(fit(self.s.t("Unicum · {provider} · {model} · {folder}", **names)), style="bold")
        if provider.note:
            self.say(provider.note, style="yellow")
        if self.live is not None:
            self.notes()
        self.say(
            fit(self.s.t("/help for commands · Esc+Enter for a new line · Ctrl-D to exit")),
            style="dim",
        )

    def notes(self) -> None:
        from core.agent import start_notes

        if self.live.debug_log is not None:
            self.say(self.s.t("debug log: {path}", path=self.live.debug_log.path), style="dim")
        if self.live.tool_line:
            self.say(self.s.line(self.live.tool_line), style="dim")
        for note in start_notes(self.live):
            self.say(self.s.line(note), style="yellow")

    # --- the loop ----------------------------------------------------------------------------
    def expand_command(self, body: str) -> str:
        """A custom command's body: its !`cmd` lines run (the terminal tool: approvals,
        sandbox; the command's allowed-tools), their output in place; its @files attached."""
        from ui.repl.bang import run_bangs
        from ui.repl.mentions import attach_mentions

        text = run_bangs(self, body)
        return attach_mentions(text, self.agent.tool_context, self.say, self.s.t)

    def run_task(self, text: str, label: str = "") -> None:
        """A typed task (or a custom command's): planned first in the plan mode. `label`:
        what the user typed, when `text` says more (attached files, a command's prompt)."""
        from ui.commands import run_task

        run_task(self, text, label)

    def execute_task(self, text: str, label: str = "") -> TaskResult | None:
        """The one place a task runs (typed ones via `ui.commands.plan.run_task`)."""
        from ui.commands import apply_mode
        from ui.repl.budget import run_with_budget

        apply_mode(self)
        images = images_for(self, text)
        self.indexing_status()
        try:
            result = run_with_budget(
                self.agent, text, self.console, self.ask, self.s, images, label
            )
        except Interrupted as exc:
            self.renderer.stop_live()
            self.say(self.s.t("⏹ {detail}", detail=self.s.core(str(exc))), style="yellow")
            return None
        finally:
            from core.agent import start_notes

            for note in start_notes(self.session):  # warnings raised during the task
                self.say(self.s.line(note), style="yellow")
        if result is not None and result.stop != "done":
            reason = self.s.t(STOP_WORDS[result.stop])
            self.say(
                self.s.t(
                    "stopped ({reason}): {detail}", reason=reason, detail=self.s.line(result.text)
                ),
                style="yellow",
            )
        if result is not None and self.opts.auto_commit:
            self.commit_turn()
        return result

    def commit_turn(self) -> None:
        """`--auto-commit`: the turn's file changes as the agent's own commit."""
        from core.agent import auto_commit

        line = auto_commit(self.agent)
        if line:
            self.say(self.s.line(line), style="dim")

    def indexing_status(self) -> None:
        """The first task waits for the build when the overview is in the prompt: say so."""
        first, self.first_task = self.first_task, False
        waits = first and self.opts.codemap and self.opts.overview_in_prompt
        if waits and not self.session.code_map.wait(0):
            self.renderer.spin(self.s.t("indexing the code map…"))

    def handle(self, line: str) -> bool:
        """One submitted line; True means quit."""
        first = line.split(maxsplit=1)[0]
        if first.startswith("/") and "/" not in first[1:]:
            from ui.commands import dispatch

            return dispatch(self, line)
        from ui.repl.line_forms import run_line  # `!command`, or a task with its `@path` files

        return run_line(self, line)

    def loop(self) -> int:
        from ui.commands import apply_editor_mode, cycle_mode, editor_mode, prompt_text
        from ui.repl.clipboard import paste_clipboard
        from ui.repl.prompt import PROMPT, make_session
        from ui.repl.status_bar import open_bar

        def command_names():
            from ui.commands import COMMANDS, custom_commands

            return [*COMMANDS, *custom_commands(self)]

        folder = lambda: self.opts.workspace.expanduser().resolve()  # noqa: E731
        paste = lambda: paste_clipboard(self)  # noqa: E731
        bar = open_bar(self)
        mode = lambda: (cycle_mode(self), bar.refresh())  # noqa: E731
        session = make_session(self.home, command_names, folder, mode, paste, bar)
        bar.redraw = session.app.invalidate
        apply_editor_mode(session, editor_mode(self.home))
        self.prompt_session = session  # /vim switches its key bindings
        if self._opening is None:
            self.warm_up()
        ctrl_c = False
        while True:
            try:
                bar.before_prompt(session.app.output, self.say)  # a turn ended: again
                line = session.prompt(lambda: prompt_text(self, PROMPT)).strip()
            except EOFError:
                return 0
            except KeyboardInterrupt:
                if ctrl_c:
                    return 0
                ctrl_c = True
                try:
                    self.say(self.s.t("press Ctrl-C again or Ctrl-D to exit"), style="dim")
                except KeyboardInterrupt:  # pressed twice before the prompt came back
                    return 0
                continue
            ctrl_c = False
            if not line:
                continue
            try:
                self.wait_until_open()
            except SessionFailed as exc:
                return self.failed_to_open(exc.args[0])
            with self.focus.busy():
                if self.guarded(line):
                    return 0

    def failed_to_open(self, exc: BaseException) -> int:
        return failed_to_open(self, exc)

    def guarded(self, line: str) -> bool:
        """`handle` with errors as one line; a traceback only with --debug."""
        return guarded(self, line)


def run_repl(args: argparse.Namespace) -> int:
    strings = Strings(args.lang)
    console = LazyConsole(highlight=False)
    repl = Repl(args, console, strings)
    try:
        provider = resolve_provider(args.provider, args.model)  # cheap checks first
        check_workspace(repl.opts.workspace)
        check_home(unicum_home())
        resume = None
        if args.cont or args.resume:
            resume = find_session(
                unicum_home(), repl.opts.workspace.expanduser().resolve(), args.resume
            )
        if resume is not None or args.debug:
            repl.new_session(resume=resume)  # the recap / debug-log path come before the prompt
        else:
            repl.open_in_background()
    except (ConfigError, UnicumError, TranscriptError) as exc:
        print(styled(f"unicum: {strings.line(str(exc))}", "red", sys.stderr), file=sys.stderr)
        return 2
    except Exception as exc:
        if args.debug:
            print(traceback.format_exc(), end="")
        repl.say(internal_error(strings, exc), style="red")
        return 1
    repl.banner(provider)
    if repl.live is not None and repl.live.resumed:
        repl.recap()
    elif args.resume == "":  # `--resume` without an id: the picker
        repl.guarded("/resume")
    try:
        with repl.focus.reporting():
            return repl.loop()
    finally:
        if repl._opening is not None:  # left before the first line: let it finish, then close
            repl._opening.join()
        repl.end_session("other" if sys.exc_info()[0] else "prompt_input_exit")
        repl.say(goodbye(repl.live, strings), style="dim")
