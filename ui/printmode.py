"""`-p` mode: run one task, progress on stderr, the answer on stdout."""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
import traceback

from core.agent import (
    AgentHooks,
    TaskResult,
    TranscriptError,
    end_session,
    open_session,
    resume_path,
    resumed_options,
    start_notes,
)
from my_agent.errors import ConfigError, UnicumError
from my_agent.messages import StreamEvent, ToolCall
from tools.base import ToolOutput
from ui.i18n import Strings
from ui.options import options_from_args


class StderrProgress(AgentHooks):
    def __init__(self, strings: Strings) -> None:
        self.s = strings
        self.retry_shown = 0
        self.last_result: TaskResult | None = None

    def on_tool_start(self, call: ToolCall) -> None:
        arg = next(iter(call.arguments.values()), "") if call.arguments else ""
        print(f"· {call.name} {str(arg)[:80]}", file=sys.stderr, flush=True)

    def on_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        mark = "✗" if output.is_error else "✓"
        print(f"  {mark} {seconds:.1f}s", file=sys.stderr, flush=True)

    def on_stream(self, event: StreamEvent) -> None:
        return None

    def on_retry(self, attempt: int, wait: float, reason: str) -> None:
        """A countdown that ticks in place on a terminal; one line per retry otherwise."""
        text = self.s.t(
            "retry", reason=self.s.reason(reason), attempt=attempt, wait=math.ceil(wait)
        )
        line = f"unicum: {text}"
        if sys.stderr.isatty():
            print(f"\r{line}\033[K", end="\n" if wait <= 1 else "", file=sys.stderr, flush=True)
        elif attempt != self.retry_shown:
            print(line, file=sys.stderr, flush=True)
        self.retry_shown = attempt

    def on_budget_warning(self, warning) -> None:
        print(f"unicum: warning: {warning.text}", file=sys.stderr, flush=True)

    def on_task_end(self, result: TaskResult) -> None:
        self.last_result = result  # turns and usage so far, for a failed run's JSON


def _fail(
    args: argparse.Namespace,
    code: int,
    message: str,
    session_id: str,
    progress: StderrProgress,
    started: float,
) -> int:
    """Report a failed run: one line on stderr and, with --output-format json, one object."""
    print(f"unicum: {message}", file=sys.stderr)
    if args.output_format == "json":
        done = progress.last_result
        print(
            json.dumps(
                {
                    "result": None,
                    "error": message,
                    "is_error": True,
                    "session_id": session_id,
                    "stop": done.stop if done else "error",
                    "turns": done.turns if done else 0,
                    "usage": done.usage.to_dict() if done else None,
                    "duration_ms": int((time.monotonic() - started) * 1000),
                },
                ensure_ascii=False,
            )
        )
    return code


def run_print(args: argparse.Namespace) -> int:
    started = time.monotonic()
    opts = options_from_args(args, task_hint=args.prompt)
    strings = Strings(args.lang)
    progress = StderrProgress(strings)
    try:
        resume = resume_path(opts, args.cont, args.resume)
        opts = resumed_options(opts, resume)  # the resumed id, in the JSON output too
        hooks: list[AgentHooks] = [progress]
        if args.time:
            from ui.diagnostics import TimingHooks

            hooks.append(TimingHooks(strings, lambda: live.agent.context_seconds, sys.stderr))
        live = open_session(opts, hooks, resume=resume, debug=args.debug)
        if live.debug_log is not None:
            print(f"unicum: debug log {live.debug_log.path}", file=sys.stderr)
        if live.agent.client.provider.note:
            print(f"unicum: {live.agent.client.provider.note}", file=sys.stderr, flush=True)
        for note in start_notes(live):
            print(f"unicum: {note}", file=sys.stderr)
        try:
            result = live.agent.run(args.prompt)
        finally:
            for note in end_session(live):
                print(f"unicum: {note}", file=sys.stderr)
    except (ConfigError, TranscriptError) as exc:
        return _fail(args, 2, str(exc), opts.session_id, progress, started)
    except (UnicumError, KeyboardInterrupt) as exc:
        return _fail(
            args, 1, strings.core(str(exc) or "Ctrl-C"), opts.session_id, progress, started
        )
    except Exception as exc:  # a bug: one line, the traceback only with --debug
        if args.debug:
            traceback.print_exc()
        return _fail(
            args,
            1,
            f"internal error: {type(exc).__name__}: {exc} (--debug shows the traceback)",
            opts.session_id,
            progress,
            started,
        )
    if args.output_format == "json":
        print(
            json.dumps(
                {
                    "result": result.text,
                    "is_error": result.stop != "done",
                    "stop": result.stop,
                    "session_id": opts.session_id,
                    "turns": result.turns,
                    "usage": result.usage.to_dict(),
                    "duration_ms": int((time.monotonic() - started) * 1000),
                },
                ensure_ascii=False,
            )
        )
    else:
        print(result.text)
    return 0 if result.stop == "done" else 1
