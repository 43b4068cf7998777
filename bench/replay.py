"""Replay recorded agent sessions through context policies and compare what each would send.

    python bench/replay.py /work/shared/trajectories [more folders] [--holdout DIR]

For every API call of a recording (Claude Code: one per `message.id`), each policy builds the
request it would send. Counted per request: the fixed prompt, raw input tokens, and billed
input for two cache families (Anthropic: entries written at the product's own breakpoints and
read within 20 blocks of a later one, 0.1x, the rest 1.25x; OpenAI-style automatic prefix
caching: 0.5x, no write premium), with caches expired after 5 minutes of idle between
recorded timestamps. Two tables: every policy charged the recording's own fixed prompt (the
policy alone), and ours charged Unicum's as the CLI really sends it (bench/fixed_prompt.py).
A reference a later call needs counts as retained only when the text of a line it came from
is visible; what is missing is recalled first (one more request, the recalled outputs staying
in the history until the policy drops them). Recordings are split in a tune half and a report
half by the hash of their file name.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.fixed_prompt import ROOT, cli_fixed_prompts  # noqa: E402
from bench.policies import Ours, baselines  # noqa: E402
from bench.replay_meter import Meter  # noqa: E402
from bench.replay_metrics import ANTHROPIC, OPENAI, Provenance, Tally, shown  # noqa: E402
from bench.replay_misses import Miss, misses_of, write  # noqa: E402
from bench.replay_report import render  # noqa: E402
from bench.trajectories import Recording, find_files, load  # noqa: E402
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult  # noqa: E402
from my_agent.tokens import estimate_tokens  # noqa: E402
from tools.base import ToolOutput  # noqa: E402
from tools.recall import MAX_CHARS as RECALL_CHARS  # noqa: E402

Table = dict[str, dict[str, Tally]]  # source -> policy -> tally


Wires = dict[str, int]  # provider family -> the fixed prompt its wire carries
Charge = int | Wires  # one fixed prompt for every wire, or each wire's own


def unicum_fixed_tokens() -> Wires:
    """Unicum's own fixed prompt on each wire, as the CLI really sends it (bench/fixed_prompt.py:
    its first request, measured on both wires). `UNICUM_BENCH_FIXED` overrides it (tests that
    are not about it): `N` for both wires, or `A,O` (Anthropic's, OpenAI's)."""
    given = [part.strip() for part in os.environ.get("UNICUM_BENCH_FIXED", "").split(",")]
    if all(part.isdigit() for part in given) and len(given) in (1, 2):
        return wires([int(part) for part in given] * (3 - len(given)))
    return {wire: found.tokens for wire, found in cli_fixed_prompts(ROOT).items()}


def wires(charge: Charge | list[int]) -> Wires:
    if isinstance(charge, dict):
        return dict(charge)
    pair = charge if isinstance(charge, list) else [charge, charge]
    return dict(zip((ANTHROPIC.name, OPENAI.name), pair, strict=True))


def meter_for(charge: Charge) -> Meter:
    """A meter charging `charge`: raw counts the larger wire's, each bill its own wire's."""
    if isinstance(charge, int):
        return Meter(charge)
    return Meter(max(charge.values()), dict(charge))


def largest(charge: Charge) -> int:
    return charge if isinstance(charge, int) else max(charge.values())


def replay(rec: Recording, policy, fixed_tokens: Charge) -> Tally:
    """Drive `policy` through the recording the way the agent loop drives it."""
    return replay_bases(rec, policy, [fixed_tokens])[0]


def replay_bases(
    rec: Recording, policy, fixed: list[Charge], misses: list[Miss] | None = None
) -> list[Tally]:
    """The same replay charged with each fixed prompt in `fixed` (one tally each). What a
    recorded call needs that the request did not show is recalled first: one more request,
    whose recalled outputs stay in the history as they do live, until the policy drops them.
    `misses` collects each reference the first basis did not show (bench/replay_misses.py)."""
    meters = [meter_for(charge) for charge in fixed]
    origin = Provenance()
    origin.note(Message("user", [TextBlock(rec.system)]))
    calls = {c.id: c for m in rec.messages for c in m.tool_calls}
    history: list[Message] = []
    step = 0
    shown_at: dict[str, int] = {}  # call id -> the step that first showed its output
    for msg in rec.messages:
        known = None
        if msg.role == "assistant":
            when = rec.times[step] if step < len(rec.times) else 0.0
            latest = tuple(r.call_id for r in history[-1].tool_results) if history else ()
            needed = origin.needed_by(msg)
            request = policy.messages_for_request(history)
            for meter in meters:
                meter.request(request, when)
            gone = [meter.missing(needed, origin) for meter in meters][0]
            if misses is not None:
                misses += misses_of(gone, origin, policy, rec.name, rec.source, step, shown_at)
            wanted = {origin.last_output[r] for r in gone}
            wanted |= {c for c in latest if not meters[0].shows(c, origin)}
            if wanted:
                _recall(sorted(wanted), f"{step}", history, policy, origin)
                request = policy.messages_for_request(history)
                for meter in meters:
                    meter.tally.recalls += len(wanted)
                    meter.request(request, when, recall=True)
            step += 1

            def known(ref: str, needed: set[str] = needed) -> bool:
                return ref in needed or meters[0].sees(ref, origin)  # seen, or recalled
        else:
            for result in msg.tool_results:
                shown_at[result.call_id] = step
                if result.call_id in calls:
                    policy.on_tool_result(
                        calls[result.call_id], ToolOutput(result.content, result.is_error)
                    )
        origin.note(msg, known)
        history.append(msg)
    for meter in meters:
        meter.tally.compactions = policy.compactions
    return [meter.tally for meter in meters]


def _recall(
    wanted: list[str], step: str, history: list[Message], policy, origin: Provenance
) -> None:
    """The model asks for each wanted output back (in one turn, whole: what `recall(id)`
    returns, cut as the tool cuts it) and the history keeps the answers."""
    asks = [ToolCall(f"recall-{step}-{n}", "recall", {"id": cid}) for n, cid in enumerate(wanted)]
    answers = []
    for ask, cid in zip(asks, wanted, strict=True):
        text = origin.contents.get(cid, "")
        if len(text) > RECALL_CHARS:
            half = RECALL_CHARS // 2
            text = f"{text[:half]}\n[… {len(text) - RECALL_CHARS} chars cut …]\n{text[-half:]}"
        answers.append(ToolResult(ask.id, f"[#{cid} recalled]\n{text}"))
    history += [Message("assistant", list(asks)), Message("user", list(answers))]
    for ask, answer in zip(asks, answers, strict=True):
        policy.on_tool_result(ask, ToolOutput(answer.content))


def estimates(rec: Recording) -> list[int]:
    """The local estimate of each full-history request (system text included, no overhead)."""
    total, out = estimate_tokens(rec.system), []
    for msg in rec.messages:
        if msg.role == "assistant":
            out.append(total)
        total += shown(msg).tokens
    return out


def measured_overhead(rec: Recording) -> int:
    """What the file leaves out of each request (system prompt, tool schemas), in estimated
    tokens: the intercept of provider-counted input against the local estimate."""
    pairs = [(e, b) for e, b in zip(estimates(rec), rec.billed, strict=False) if b > 0]
    if not pairs:
        return 0
    if len(pairs) < 3:
        return max(0, pairs[0][1] - pairs[0][0])
    n = len(pairs)
    mean_e, mean_b = sum(e for e, _ in pairs) / n, sum(b for _, b in pairs) / n
    spread = sum((e - mean_e) ** 2 for e, _ in pairs)
    slope = sum((e - mean_e) * (b - mean_b) for e, b in pairs) / spread if spread else 1.0
    if not 0.5 <= slope <= 2.0:
        return max(0, min(b - e for e, b in pairs))
    return max(0, int((mean_b - slope * mean_e) / slope))


def half(path: Path) -> str:
    """The deterministic split: odd first byte of the file name's SHA-1 tunes, even reports."""
    return "tune" if hashlib.sha1(path.name.encode()).digest()[0] % 2 else "report"


def recordings(path: Path) -> list[Recording]:
    """The recordings in one file that made API calls, each with its measured overhead;
    ValueError when there are none (nothing to replay)."""
    found = [r for r in load(path) if any(m.role == "assistant" for m in r.messages)]
    if not found:
        raise ValueError("no API calls in it")
    for rec in found:
        rec.overhead_tokens = measured_overhead(rec)
    return found


Settings = dict[str, dict]  # name -> ContextBudget fields that differ from the default
OURS: Settings = {"ours": {}}
UNICUM = " · ours with Unicum's prompt"  # the second table's section suffix
COMPARED = ("naive", "mask-10k")  # the baselines the second table repeats beside ours


def replay_file(
    path: Path,
    ours_fixed: Charge,
    fixed_seen: dict[str, list[int]] | None = None,
    ours: Settings = OURS,
    others: Callable[[], list] = baselines,
    misses: list[Miss] | None = None,
) -> list[tuple[str, str, str, Tally]]:
    """(basis, source, policy, tally) for every recording in one file. Basis "": every policy
    charged the recording's own fixed prompt (the policy alone); `UNICUM`: ours in each of its
    settings charged Unicum's, beside `COMPARED` with their own (what a user switching sees),
    and any policy marked `both_bases` (the line oracle) on both.
    `fixed_seen` collects each recording's own fixed prompt per source; `misses` the
    retention misses of ours (its first setting)."""
    rows = []
    for rec in recordings(path):
        fixed = estimate_tokens(rec.system) + rec.overhead_tokens
        if fixed_seen is not None:
            fixed_seen.setdefault(rec.source, []).append(fixed)
        for policy in others():
            if hasattr(policy, "prepare"):
                policy.prepare(rec)  # a bound that knows the recording (bench/oracle.py)
            if getattr(policy, "both_bases", False):
                same, unicum = replay_bases(rec, policy, [fixed, ours_fixed])
                rows += [
                    ("", rec.source, policy.name, same),
                    (UNICUM, rec.source, policy.name, unicum),
                ]
                continue
            tally = replay(rec, policy, fixed)
            rows.append(("", rec.source, policy.name, tally))
            if policy.name in COMPARED:
                rows.append((UNICUM, rec.source, policy.name, tally))
        for n, (name, budget) in enumerate(ours.items()):
            policy = Ours(overhead_tokens=largest(ours_fixed), name=name, **budget)
            listed = misses if n == 0 else None
            same, unicum = replay_bases(rec, policy, [fixed, ours_fixed], listed)
            rows += [("", rec.source, name, same), (UNICUM, rec.source, name, unicum)]
    return rows


def run(
    groups: list[tuple[str, list[Path], bool]],
    per_file: bool = False,
    fixed_seen: dict[str, list[int]] | None = None,
    only: str = "",
    ours: Settings = OURS,
    others: Callable[[], list] = baselines,
    ours_fixed: Charge | None = None,
    misses: list[Miss] | None = None,
) -> dict[str, Table]:
    """section -> table; each group is (label, paths, split into tune/report halves); `only`:
    that half alone (tuning runs never look at the report half); `ours` and `others` as in
    `replay_file`; `ours_fixed`: Unicum's fixed prompt (default: measured from the CLI); `misses`: as in
    `replay_file`."""
    sections: dict[str, Table] = {}
    ours_fixed = unicum_fixed_tokens() if ours_fixed is None else ours_fixed
    for label, paths, split in groups:
        for name in ("tune", "report") if split else ():
            for basis in ("", UNICUM):
                sections[f"{label} · {name} half{basis}"] = {}  # tune first, filled below
        for path in find_files(paths):
            if split and only and half(path) != only:
                continue
            try:
                rows = replay_file(path, ours_fixed, fixed_seen, ours, others, misses)
            except (ValueError, KeyError, OSError) as exc:
                print(f"skipped {path}: {exc}", file=sys.stderr)
                continue
            section = f"{label} · {half(path)} half" if split else label
            for basis, source, name, tally in rows:
                table = sections.setdefault(section + basis, {})
                keys = (source, "total") + ((f"{source}/{path.name}",) if per_file else ())
                for key in keys:
                    table.setdefault(key, {}).setdefault(name, Tally()).add(tally)
    return sections


def fixed_note(fixed_seen: dict[str, list[int]], ours_fixed: Charge) -> str:
    own = ", ".join(
        f"{source} median {sorted(v)[len(v) // 2]:,}" for source, v in sorted(fixed_seen.items())
    )
    return (
        f"(fixed prompt per request — the recordings' own, measured from their usage where the "
        f"file leaves it out: {own}; in the tables marked{UNICUM}, ours is charged Unicum's "
        f"as the CLI sends it: {_wires_text(ours_fixed)})"
    )


def _wires_text(charge: Charge) -> str:
    if isinstance(charge, int):
        return f"{charge:,}"
    each = ", ".join(f"{wire} wire {tokens:,}" for wire, tokens in charge.items())
    return f"{each}; each bill its own wire's, raw the larger"


def split_note(groups: list[tuple[str, list[Path], bool]]) -> str:
    rows = []
    for label, paths, split in groups:
        if not split:
            continue
        for name in ("tune", "report"):
            files = [p.name for p in find_files(paths) if half(p) == name]
            rows.append(f"{label} · {name} half ({len(files)} files): {', '.join(files)}")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path, help="trajectory files or folders")
    parser.add_argument(
        "--holdout", action="append", type=Path, default=[], metavar="DIR",
        help="recordings of your own, reported whole (no tune/report split); repeatable",
    )  # fmt: skip
    parser.add_argument("--no-split", action="store_true", help="no tune/report halves")
    parser.add_argument("--per-file", action="store_true", help="one table per recording too")
    parser.add_argument("--half", choices=("tune", "report"), default="", help="that half only")
    parser.add_argument(
        "--misses", type=Path, metavar="FILE",
        help="write each retention miss of ours here (the output it came from, what ours did)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    missing = [p for p in [*args.paths, *args.holdout] if not p.exists()]
    if missing:
        print(f"replay: no such file or folder: {missing[0]}", file=sys.stderr)
        return 2
    several = len(args.paths) > 1
    groups = [(str(p) if several else "recordings", [p], not args.no_split) for p in args.paths]
    groups += [(f"holdout {p}", [p], False) for p in args.holdout]
    started = time.monotonic()
    fixed_seen: dict[str, list[int]] = {}
    ours_fixed = unicum_fixed_tokens()
    misses: list[Miss] | None = [] if args.misses else None
    sections = run(
        groups, args.per_file, fixed_seen, args.half, ours_fixed=ours_fixed, misses=misses
    )
    if not any(sections.values()):
        print("replay: no trajectories found", file=sys.stderr)
        return 2
    print(render({name: table for name, table in sections.items() if table}))
    print(f"\n(tokens estimated locally; {time.monotonic() - started:.1f}s)")
    print(fixed_note(fixed_seen, ours_fixed))
    print(split_note(groups))
    if args.misses and misses is not None:
        write(misses, args.misses)
        print(f"{len(misses)} retention misses of ours written to {args.misses}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
