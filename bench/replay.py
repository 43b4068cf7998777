"""Replay recorded agent sessions through context policies and compare what each would send.

    python bench/replay.py ../shared/trajectories [more files or folders]

For every step, each policy builds the exact request it would send; the table prints raw input
tokens, cache-billed input (prefix cache: the common prefix with the previous request at 0.1x,
the rest at 1.25x) and reference retention, per source and in total.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.policies import all_policies  # noqa: E402
from bench.replay_metrics import Meter, Provenance, Tally  # noqa: E402
from bench.trajectories import CLAUDE_CODE_OVERHEAD, Recording, find_files, load  # noqa: E402
from my_agent.messages import Message, TextBlock  # noqa: E402
from my_agent.tokens import estimate_tokens  # noqa: E402
from tools.base import ToolOutput  # noqa: E402


def replay(rec: Recording, policy) -> Tally:
    """Drive `policy` through the recording the way the agent loop drives it."""
    meter = Meter(system_tokens=estimate_tokens(rec.system) + rec.overhead_tokens)
    origin = Provenance()
    origin.note(Message("user", [TextBlock(rec.system)]))
    calls = {c.id: c for m in rec.messages for c in m.tool_calls}
    history: list[Message] = []
    for msg in rec.messages:
        if msg.role == "assistant":
            request = policy.messages_for_request(history)
            meter.request(request, origin.needed_by(msg))
        else:
            for result in msg.tool_results:
                if result.call_id in calls:
                    policy.on_tool_result(
                        calls[result.call_id], ToolOutput(result.content, result.is_error)
                    )
        origin.note(msg)
        history.append(msg)
    meter.tally.compactions = policy.compactions
    return meter.tally


def run(
    paths: list[Path], overhead: int = 0, per_file: bool = False
) -> dict[str, dict[str, Tally]]:
    """source -> policy -> tally (plus 'total'). `overhead`: tokens of system prompt and tool
    schemas that Claude Code files leave out, added to each of their requests."""
    table: dict[str, dict[str, Tally]] = {}
    for path in find_files(paths):
        try:
            recordings = load(path)
        except (ValueError, KeyError, OSError) as exc:
            print(f"skipped {path}: {exc}", file=sys.stderr)
            continue
        for rec in recordings:
            if rec.source == "claude-code":
                rec.overhead_tokens = overhead  # what the file leaves out, when asked to count it
            for policy in all_policies(rec.overhead_tokens):
                tally = replay(rec, policy)
                keys = (rec.source, "total") + ((f"{rec.source}/{rec.name}",) if per_file else ())
                for source in keys:
                    table.setdefault(source, {}).setdefault(policy.name, Tally()).add(tally)
    return table


def calibration(paths: list[Path]) -> str:
    """How the local estimate compares with provider-billed prompt tokens, where files have them."""
    estimated = billed = 0
    for path in find_files(paths):
        try:
            recordings = load(path)
        except (ValueError, KeyError, OSError):
            continue
        for rec in recordings:
            if not rec.billed:
                continue
            meter, history, step = Meter(estimate_tokens(rec.system)), [], 0
            for msg in rec.messages:
                if msg.role == "assistant" and step < len(rec.billed) and rec.billed[step]:
                    before = meter.tally.raw
                    meter.request(history, set())
                    estimated += int(meter.tally.raw - before)
                    billed += rec.billed[step]
                step += msg.role == "assistant"
                history.append(msg)
    if not billed:
        return "(no provider-billed token counts in these files to calibrate against)"
    return (
        f"(estimator vs provider-billed prompt tokens where recorded: {estimated:,} estimated, "
        f"{billed:,} billed, ratio {billed / estimated:.2f})"
    )


def render(table: dict[str, dict[str, Tally]]) -> str:
    rows = []
    for source in sorted(table, key=lambda name: (name == "total", name)):
        by_policy = table[source]
        naive = by_policy["naive"]
        rows.append(f"\n{source} ({naive.requests} requests)")
        rows.append(
            f"{'policy':<11}{'raw input':>13}{'% naive':>9}{'billed':>13}{'% naive':>9}"
            f"{'retention':>11}{'compactions':>13}{'peak':>9}"
        )
        for name, t in by_policy.items():
            rows.append(
                f"{name:<11}{t.raw:>13,.0f}{100 * t.raw / naive.raw:>8.0f}%"
                f"{t.billed:>13,.0f}{100 * t.billed / naive.billed:>8.0f}%"
                f"{100 * t.retention:>10.1f}%{t.compactions:>13}{t.peak:>9,}"
            )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path, help="trajectory files or folders")
    parser.add_argument(
        "--claude-code-overhead",
        type=int,
        default=0,
        metavar="TOKENS",
        help="count the system prompt + tool schemas Claude Code files omit "
        f"(about {CLAUDE_CODE_OVERHEAD:,}) in each of their requests",
    )
    parser.add_argument("--per-file", action="store_true", help="one table per recording too")
    args = parser.parse_args(argv)
    missing = [p for p in args.paths if not p.exists()]
    if missing:
        print(f"replay: no such file or folder: {missing[0]}", file=sys.stderr)
        return 2
    started = time.monotonic()
    table = run(args.paths, args.claude_code_overhead, args.per_file)
    if not table:
        print("replay: no trajectories found", file=sys.stderr)
        return 2
    print(render(table))
    print(f"\n(tokens estimated locally; {time.monotonic() - started:.1f}s)")
    print(calibration(args.paths))
    return 0


if __name__ == "__main__":
    sys.exit(main())
