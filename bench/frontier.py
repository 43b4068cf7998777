"""The frontier: ours replayed with one setting changed at a time, beside naive and masking,
and where the default's requests go.

    python bench/frontier.py /work/shared/trajectories [--half tune|report]

Each setting is a set of `ContextBudget` fields (core/context/budget.py) that differ from the
default; the table is the replay's (bench/replay.py), on the tune half unless told otherwise.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.oracle import LineOracle  # noqa: E402
from bench.policies import Masking, Naive, Ours  # noqa: E402
from bench.replay import (  # noqa: E402
    Settings,
    half,
    largest,
    recordings,
    replay,
    run,
    unicum_fixed_tokens,
)
from bench.replay_metrics import ANTHROPIC  # noqa: E402
from bench.replay_report import render  # noqa: E402
from bench.trajectories import find_files  # noqa: E402
from core.context import LineRules  # noqa: E402
from my_agent.facts import KINDS  # noqa: E402
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult  # noqa: E402
from my_agent.tokens import estimate_tokens  # noqa: E402

SETTINGS: dict[str, tuple[str, dict]] = {
    "ours": ("the default", {}),
    "no-events": ("no rewrite of older outputs at events", {"batch_tokens": 10**9}),
    "free-events": (
        "events whenever they save anything (a rewrite priced as free)",
        {"min_gain": 0.0, "cache_write": 0.1},
    ),
    "no-early": (
        "no decisions after one turn",
        {"early_kinds": (), "early_superseded": False, "early_notes": False},
    ),
    "no-notes": ("the model's notes never shortened", {"early_notes": False}),
    "no-lines": (
        "no line-level selection (outputs whole or their fact line)",
        {"early_lines": None},
    ),
    "no-shape": ("known programs' output not shaped at first show", {"shape_outputs": False}),
    "reads-early": (
        "file reads judged after one turn, like other outputs",
        {"early_lines": LineRules(late_kinds=())},
    ),
    "small-8": ("small outputs whole only among the 8 latest", {"small_for_results": 8}),
    "event-facts": (
        "events turn reads into their fact line, not the lines named since",
        {"event_lines": ()},
    ),
    "read-task": (
        "a large file read keeps only the task's lines, not those the model just named",
        {"read_named": 0},
    ),
    "whole-reads": ("file reads exempt from the size rule up to 12k", {"whole_reads": 12_000}),
    "args-writes": (
        "only written contents archived from the next request on, other long arguments at events",
        {"early_args": "writes"},
    ),
    "notes-300": ("the model's older notes shortened to 300 characters", {"old_text_chars": 300}),
    "floor": (
        "every output its line after one turn, failures too",
        {"early_kinds": KINDS, "early_keep_up_to": (), "early_keep_failures": False},
    ),
}
PARTS = ("fixed prompt", "task", "user", "notes", "commands", "outputs whole", "outputs cut")


def settings(names: str = "") -> Settings:
    """The settings named (comma-separated; unknown names are an error), default all."""
    chosen = [n.strip() for n in names.split(",") if n.strip()] or list(SETTINGS)
    unknown = [n for n in chosen if n not in SETTINGS]
    if unknown:
        raise SystemExit(f"frontier: no setting {', '.join(unknown)} (see --help)")
    return {name: SETTINGS[name][1] for name in chosen}


def baselines() -> list:
    """Naive and masking, and the line oracle (bench/oracle.py) on both bases: what is
    reachable at all when only the lines later calls use are kept."""
    return [Naive(), Masking(3, 10_000), LineOracle()]


class Composition:
    """A policy whose requests are added up by part as they are built."""

    def __init__(self, policy, fixed_tokens: int) -> None:
        self.policy, self.name, self.fixed = policy, policy.name, fixed_tokens
        self.parts: Counter[str] = Counter()
        self.requests = 0

    @property
    def compactions(self) -> int:
        return self.policy.compactions

    def on_tool_result(self, call: ToolCall, output: object) -> None:
        self.policy.on_tool_result(call, output)

    def messages_for_request(self, history: list[Message]) -> list[Message]:
        request = self.policy.messages_for_request(history)
        given = {r.call_id: r.content for m in history for r in m.tool_results}
        self.requests += 1
        self.parts["fixed prompt"] += self.fixed
        for i, msg in enumerate(request):
            for block in msg.blocks:
                part, text = _part(i, msg.role, block, given)
                self.parts[part] += estimate_tokens(text)
        return request


def _part(index: int, role: str, block: object, given: dict[str, str]) -> tuple[str, str]:
    if isinstance(block, ToolResult):
        whole = given.get(block.call_id) == block.content
        return ("outputs whole" if whole else "outputs cut"), block.content
    if isinstance(block, ToolCall):
        return "commands", block.name + str(block.arguments)
    text = block.text if isinstance(block, TextBlock) else str(block)
    return ("task" if index == 0 else "notes" if role == "assistant" else "user"), text


def composition(paths: list[Path], only: str) -> dict[str, dict[str, Composition]]:
    """source -> {"naive", "ours", "oracle"} -> the requests of that half, by part (ours and
    the oracle with Unicum's prompt)."""
    out: dict[str, dict[str, Composition]] = {}
    ours_fixed = largest(unicum_fixed_tokens())
    for path in find_files(paths):
        if only and half(path) != only:
            continue
        try:
            found = recordings(path)
        except (ValueError, KeyError, OSError):
            continue  # the replay above said why
        for rec in found:
            own = estimate_tokens(rec.system) + rec.overhead_tokens
            oracle = LineOracle()
            oracle.prepare(rec)
            mine = (Ours(overhead_tokens=ours_fixed), oracle)
            for policy, fixed in ((Naive(), own), *((p, ours_fixed) for p in mine)):
                wrapped = Composition(policy, fixed)
                replay(rec, wrapped, fixed)
                into = out.setdefault(rec.source, {}).setdefault(
                    policy.name, Composition(policy, 0)
                )
                into.parts.update(wrapped.parts)
                into.requests += wrapped.requests
    return out


def render_composition(found: dict[str, dict[str, Composition]]) -> str:
    rows = ["\nwhere a request goes (tokens per request; % of naive's request)"]
    rows.append(f"{'source':<16}{'policy':<7}" + "".join(f"{p:>15}" for p in PARTS) + f"{'all':>9}")
    for source, policies in sorted(found.items()):
        naive = sum(policies["naive"].parts.values()) / max(1, policies["naive"].requests)
        for name, comp in policies.items():
            n = max(1, comp.requests)
            cells = "".join(
                f"{comp.parts[p] / n:>8,.0f} {100 * comp.parts[p] / n / naive:>4.0f}%"
                for p in PARTS
            )
            rows.append(f"{source:<16}{name:<7}{cells}{sum(comp.parts.values()) / n:>9,.0f}")
    return "\n".join(rows)


def render_split(sections: dict) -> str:
    """Each policy's Anthropic bill in its three parts, as % of naive's bill: the cached prefix
    read (0.1x), what is sent past it (1.25x: new messages, and all after a rewrite), recalls."""
    rows = ["\nthe Anthropic bill in parts (% of naive's): cached reads + written + recalls"]
    for section, table in sections.items():
        for source, by_policy in sorted(table.items(), key=lambda kv: (kv[0] == "total", kv[0])):
            naive = by_policy["naive"].billed["anthropic"]
            cells = []
            for name, t in by_policy.items():
                written = ANTHROPIC.write * t.fresh
                recalls = t.recall_billed["anthropic"]
                read = t.billed["anthropic"] - written - recalls
                cells.append(
                    f"{name} {_pct(read, naive)}+{_pct(written, naive)}+{_pct(recalls, naive)}"
                )
            rows.append(f"{section} · {source}: " + ", ".join(cells))
    return "\n".join(rows)


def _pct(value: float, whole: float) -> str:
    return f"{100 * value / whole:.0f}" if whole else "0"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", type=Path, help="trajectory files or folders")
    parser.add_argument("--half", choices=("tune", "report", "all"), default="tune")
    parser.add_argument("--settings", default="", help=f"only these: {', '.join(SETTINGS)}")
    args = parser.parse_args(argv)
    missing = [p for p in args.paths if not p.exists()]
    if missing:
        print(f"frontier: no such file or folder: {missing[0]}", file=sys.stderr)
        return 2
    only = "" if args.half == "all" else args.half
    groups = [(f"{args.half} half" if only else "all recordings", args.paths, False)]
    if only:
        groups = [("recordings", args.paths, True)]
    sections = {
        k: v
        for k, v in run(groups, only=only, ours=settings(args.settings), others=baselines).items()
        if v
    }
    if not sections:
        print("frontier: no trajectories found", file=sys.stderr)
        return 2
    print(render(sections))
    print(render_split(sections))
    print("\nsettings (ContextBudget fields changed from the default):")
    for name, (what, budget) in SETTINGS.items():
        print(f"  {name:<12} {what}: {budget or '-'}")
    print(render_composition(composition(args.paths, only)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
