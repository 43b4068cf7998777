"""What the REPL does with an error: one line (in the UI language), a traceback only with --debug,
and the conversation repaired so the next line works."""

from __future__ import annotations

import sys
import traceback
from typing import Any

from core.agent import TranscriptError, close_open_tool_calls
from my_agent.errors import ConfigError, Interrupted, UnicumError
from ui.terminal import styled
from ui.words import Strings


def internal_error(s: Strings, exc: BaseException) -> str:
    return s.t(
        "internal error: {detail} (run with --debug for the traceback)",
        detail=f"{type(exc).__name__}: {exc}",
    )


def failed_to_open(repl: Any, exc: BaseException) -> int:
    """The background session could not open: one line (a traceback only with --debug)."""
    if isinstance(exc, ConfigError | UnicumError | TranscriptError):
        print(styled(f"unicum: {repl.s.line(str(exc))}", "red", sys.stderr), file=sys.stderr)
        return 2
    if repl.args.debug:
        traceback.print_exception(exc)
    repl.say(internal_error(repl.s, exc), style="red")
    return 1


def guarded(repl: Any, line: str) -> bool:
    """`repl.handle(line)` with errors as one line; a traceback only with --debug."""
    try:
        return repl.handle(line)
    except KeyboardInterrupt:  # landed outside the agent's own handling: repair, go on
        from core.agent import INTERRUPTED

        repl.renderer.stop_live()
        close_open_tool_calls(repl.agent.history, INTERRUPTED)
        repl.session.save()
        repl.say(repl.s.t("⏹ {detail}", detail=repl.s.core("Ctrl-C")), style="yellow")
    except Interrupted as exc:  # e.g. Ctrl-C during /compact
        repl.renderer.stop_live()
        repl.say(repl.s.t("⏹ {detail}", detail=repl.s.core(str(exc))), style="yellow")
    except (UnicumError, ConfigError, TranscriptError) as exc:
        repl.renderer.stop_live()
        debug_trace(repl, exc)
        repl.say(repl.s.t("error: {detail}", detail=repl.s.line(str(exc))), style="red")
    except Exception as exc:
        repl.renderer.stop_live()
        debug_trace(repl, exc)
        repl.say(internal_error(repl.s, exc), style="red")
    return False


def debug_trace(repl: Any, exc: BaseException) -> None:
    """With --debug: the traceback on the screen and the error in the debug log."""
    if not repl.args.debug:
        return
    print(traceback.format_exc(), end="")
    if repl.live is not None and repl.live.debug_log is not None:
        repl.live.debug_log.write(
            "error",
            {"type": type(exc).__name__, "message": str(exc), "traceback": traceback.format_exc()},
        )
