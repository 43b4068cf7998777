"""`-p` mode: run one task, progress on stderr, the answer on stdout."""

from __future__ import annotations

import argparse
import gc
import itertools
import json
import math
import sys
import time
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import IO

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
from my_agent.errors import BudgetExceeded, ConfigError, UnicumError
from my_agent.home import unicum_home
from my_agent.messages import StreamEvent, ToolCall
from tools.base import ToolOutput
from ui.headless.stream_json import CostHooks, StreamJson, read_user_messages, result_event
from ui.launch import is_piped, options_from_args
from ui.terminal import HeadlessNotifier
from ui.words import Strings


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

    def on_tool_blocked(self, call: ToolCall, reason: str) -> None:
        """The call's own line, then its ✗ with why it did not run."""
        self.on_tool_start(call)
        print(f"  ✗ {self.s.line(reason)}", file=sys.stderr, flush=True)

    def on_stream(self, event: StreamEvent) -> None:
        return None

    def on_retry(self, attempt: int, wait: float, reason: str) -> None:
        """A countdown that ticks in place on a terminal; one line per retry otherwise."""
        text = self.s.t(
            "{reason}: retry {attempt} in {wait}s",
            reason=self.s.reason(reason),
            attempt=attempt,
            wait=math.ceil(wait),
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


def _fail(args: argparse.Namespace, code: int, message: str, run: _Run, subtype: str = "") -> int:
    """Report a failed run: one line on stderr and, with a JSON output format, one object."""
    print(f"unicum: {message}", file=sys.stderr)
    if args.output_format != "text":
        done = run.progress.last_result
        event = result_event(
            done, run.cost, run.session_id, run.seconds(), message, subtype, _streaming(args)
        )
        _print_json(event)
    return code


def _streaming(args: argparse.Namespace) -> bool:
    return args.output_format == "stream-json"


def _print_json(event: dict) -> None:
    print(json.dumps(event, ensure_ascii=False), flush=True)


@dataclass
class _Run:
    """One `-p` run: its progress hooks, cost counter, session id and clock."""

    progress: StderrProgress
    cost: CostHooks
    session_id: str
    started: float = field(default_factory=time.monotonic)

    def seconds(self) -> float:
        return time.monotonic() - self.started


def piped_input(args: argparse.Namespace, stdin: IO[str]) -> str:
    """What stdin holds when it is not a terminal (read once; "" on a terminal)."""
    if getattr(args, "stdin_text", None) is None:
        args.stdin_text = stdin.read() if is_piped(stdin) else ""
    return args.stdin_text


def headless_tasks(args: argparse.Namespace, stdin: IO[str] = sys.stdin) -> Iterator[str]:
    """The tasks to run: `-p TASK` (with piped stdin after it), `-p -` (the task is stdin), or
    with `--input-format stream-json` each user message on stdin."""
    if args.input_format == "stream-json":
        if args.prompt not in (None, "-"):
            yield args.prompt
        yield from read_user_messages(stdin)
        return
    piped = piped_input(args, stdin)
    task = (
        piped
        if args.prompt == "-"
        else (f"{args.prompt}\n\n{piped}" if piped.strip() else args.prompt)
    )
    if not task.strip():
        raise ConfigError("-p needs a task (it was empty; -p - reads it from stdin)")
    yield task


def _open(args: argparse.Namespace, opts, run: _Run, strings: Strings, stream: StreamJson | None):
    resume = resume_path(opts, args.cont, args.resume)
    opts = resumed_options(opts, resume)  # the resumed id, in the JSON output too
    run.session_id = opts.session_id
    hooks: list[AgentHooks] = [run.progress, run.cost, HeadlessNotifier(strings, lambda: live)]
    if stream is not None:
        stream.session_id = opts.session_id
        hooks.append(stream)
    timing = None
    if args.time:
        from ui.views import TimingHooks

        timing = TimingHooks(strings, lambda: live.agent.context_seconds, sys.stderr)
        hooks.append(timing)
    opening = time.monotonic()
    live = open_session(opts, hooks, resume=resume, debug=args.debug)
    if timing is not None:
        started = getattr(args, "started", opening)  # cli.py's first line, when it says
        timing.start_up(opening - started, time.monotonic() - opening)
    run.cost.cost_of = live.cost_of
    if live.debug_log is not None:
        print(f"unicum: debug log {live.debug_log.path}", file=sys.stderr)
    if live.agent.client.provider.note:
        print(f"unicum: {live.agent.client.provider.note}", file=sys.stderr, flush=True)
    if live.tool_line:
        print(f"unicum: {strings.line(live.tool_line)}", file=sys.stderr)
    for note in start_notes(live):
        print(f"unicum: {strings.line(note)}", file=sys.stderr)
    if stream is not None:
        stream.init(live)
    return live


def _collect_from_here() -> None:
    """The session is open: what start-up made lives as long as the process (cli.py keeps
    the cyclic collector off until now); set it aside for good and collect from here on."""
    gc.freeze()
    gc.enable()


def run_print(args: argparse.Namespace) -> int:
    strings = Strings(args.lang)
    opts = options_from_args(args)
    run = _Run(StderrProgress(strings), CostHooks(), opts.session_id)
    stream = (
        StreamJson(sys.stdout, opts.session_id) if args.output_format == "stream-json" else None
    )
    if args.input_format == "stream-json" and stream is None:
        return _fail(args, 2, "--input-format stream-json needs --output-format stream-json", run)
    if args.resume == "":  # `--resume` without an id: list this folder's sessions
        from ui.launch import print_sessions

        return print_sessions(unicum_home(), args.dir, strings)
    code = 0
    try:
        tasks = headless_tasks(args)
        first = next(tasks)
        opts = replace(opts, task_hint=first)
        live = _open(args, opts, run, strings, stream)
        _collect_from_here()
        run.cost.model = live.agent.client.model
        try:
            for task in itertools.chain([first], tasks):
                code = max(code, _one_task(args, live, task, run, strings))
        finally:
            for note in end_session(live):
                print(f"unicum: {note}", file=sys.stderr)
            gc.freeze()  # the process ends: the interpreter's last collections skip it all
    except (ConfigError, TranscriptError) as exc:
        return _fail(args, 2, strings.line(str(exc)), run)
    except (UnicumError, KeyboardInterrupt) as exc:  # e.g. --dir not a folder, Ctrl-C at start
        return _fail(args, 1, strings.line(strings.core(str(exc) or "Ctrl-C")), run)
    except Exception as exc:  # a bug: one line, the traceback only with --debug
        if args.debug:
            traceback.print_exc()
        detail = f"internal error: {type(exc).__name__}: {exc} (--debug shows the traceback)"
        return _fail(args, 1, detail, run)
    return code


def _one_task(args: argparse.Namespace, live, task: str, run: _Run, strings: Strings) -> int:
    """Run one task and print its answer (text), its object (json) or its result event."""
    run.started = time.monotonic()
    try:
        result = live.agent.run(task)
    except BudgetExceeded as exc:
        return _fail(args, 1, strings.line(str(exc)), run, "error_max_budget_usd")
    except (UnicumError, KeyboardInterrupt) as exc:
        return _fail(args, 1, strings.line(strings.core(str(exc) or "Ctrl-C")), run)
    if getattr(args, "auto_commit", False):
        from core.agent import auto_commit

        line = auto_commit(live.agent)
        if line:
            print(f"unicum: {strings.line(line)}", file=sys.stderr)
    if args.output_format == "text":
        print(result.text)
    else:
        event = result_event(
            result, run.cost, run.session_id, run.seconds(), wire_names=_streaming(args)
        )
        _print_json(event)
    return 0 if result.stop == "done" else 1
