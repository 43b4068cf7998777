"""`-p` mode: run one task, progress on stderr, the answer on stdout."""

from __future__ import annotations

import argparse
import json
import sys
import time

from core.errors import UnicumError
from core.events import AgentHooks
from core.messages import StreamEvent, ToolCall
from core.session import SessionOptions, create_agent
from my_agent.config import ConfigError
from tools.base import ToolOutput


class StderrProgress(AgentHooks):
    def on_tool_start(self, call: ToolCall) -> None:
        arg = next(iter(call.arguments.values()), "") if call.arguments else ""
        print(f"· {call.name} {str(arg)[:80]}", file=sys.stderr, flush=True)

    def on_tool_end(self, call: ToolCall, output: ToolOutput, seconds: float) -> None:
        mark = "✗" if output.is_error else "✓"
        print(f"  {mark} {seconds:.1f}s", file=sys.stderr, flush=True)

    def on_stream(self, event: StreamEvent) -> None:
        return None


def run_print(args: argparse.Namespace) -> int:
    started = time.monotonic()
    opts = SessionOptions(workspace=args.dir, provider=args.provider, model=args.model,
                          permission_mode=args.permission_mode, yes=args.yes,
                          max_turns=args.max_turns,
                          codemap=not getattr(args, "no_codemap", False))
    try:
        agent = create_agent(opts, hooks=StderrProgress())
        result = agent.run(args.prompt)
    except ConfigError as exc:
        print(f"unicum: {exc}", file=sys.stderr)
        return 2
    except (UnicumError, KeyboardInterrupt) as exc:
        print(f"unicum: {exc or 'interrupted'}", file=sys.stderr)
        return 1
    if args.output_format == "json":
        print(json.dumps({"result": result.text, "session_id": opts.session_id,
                          "turns": result.turns, "usage": result.usage.to_dict(),
                          "duration_ms": int((time.monotonic() - started) * 1000)},
                         ensure_ascii=False))
    else:
        print(result.text)
    return 0 if result.stop == "done" else 1
