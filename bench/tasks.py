"""Real-model task bench: Unicum and mini-swe-agent on six tiny projects with a failing test,
against the same OpenAI-compatible server (llama-server, see shared/real-llm.md). Not in CI.

    python bench/tasks.py --base-url http://127.0.0.1:8631/v1 --model qwen-1.5b \\
        --agents unicum:full,unicum:lean,mini --tasks off-by-one

Each run gets a fresh copy of the project; the referee is pytest on the project's own tests,
restored before scoring. Per run: solved, requests (counted by a loopback proxy in front of the
server), prompt and output tokens as the server reported them in its replies, the server's own
/metrics counters (prompt tokens it computed, tokens it generated: shared with anyone else using
the server at the time), how the agent stopped, and the time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.task_agents import (  # noqa: E402
    MINI_CONFIGS,
    REPLY_CAP,
    UNICUM_SETS,
    Limits,
    Ran,
    run_mini,
    run_unicum,
)
from bench.task_proxy import CountingProxy, server_metrics, wait_idle  # noqa: E402
from bench.task_set import TASKS, BenchTask  # noqa: E402

WORK = Path.home() / ".cache" / "unicum-bench" / "runs"  # the sandbox refuses a HOME under /tmp


@dataclass
class Row:
    task: str
    agent: str
    solved: bool
    requests: int
    prompt_tokens: int
    output_tokens: int
    computed: int  # prompt tokens the server computed (/metrics; cached prefixes excluded)
    generated: int  # tokens the server generated (/metrics)
    tools: int  # offered in the first request
    stop: str
    seconds: float
    tests_changed: bool
    turns: int | None = None


def referee(task: BenchTask, project: Path) -> tuple[bool, bool]:
    """(solved, tests changed): pytest on the restored tests."""
    changed = task.restore_tests(project)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode == 0, bool(changed)


def run_one(
    task: BenchTask, agent: str, proxy: CountingProxy, args: argparse.Namespace, limits: Limits
) -> Row:
    kind, _, variant = agent.partition(":")
    run_dir = Path(args.work) / f"{task.name}--{agent.replace(':', '-')}"
    shutil.rmtree(run_dir, ignore_errors=True)
    project = run_dir / "project"
    project.mkdir(parents=True)
    task.write(project)
    wait_idle(args.base_url)  # a request left running by the run before is not charged here
    proxy.reset()
    before = server_metrics(args.base_url)
    if kind == "unicum":
        ran = run_unicum(
            task.prompt, project, run_dir, proxy.url, args.model, variant or "default", limits
        )
    else:
        ran = run_mini(task.prompt, project, run_dir, proxy.url, args.model, kind, limits)
    after = server_metrics(args.base_url)
    counts = proxy.reset()
    solved, changed = referee(task, project)
    return Row(
        task.name,
        agent,
        solved,
        counts.requests,
        counts.prompt_tokens,
        counts.output_tokens,
        _delta(before, after, "prompt_tokens_total"),
        _delta(before, after, "tokens_predicted_total"),
        len(counts.tools),
        _stop(ran),
        round(ran.seconds, 1),
        changed,
        ran.turns,
    )


def _stop(ran: Ran) -> str:
    return f"{ran.stop} ({ran.detail[:120]})" if ran.detail else ran.stop


def _delta(before: dict[str, float], after: dict[str, float], name: str) -> int:
    return int(after.get(name, 0) - before.get(name, 0))


def table(rows: list[Row]) -> str:
    head = "| task | agent | solved | requests | prompt tok | output tok | computed | "
    head += "generated | tools | stop | time s |"
    lines = [head, "|" + "---|" * 11]
    for r in rows:
        cells = [r.task, r.agent, "yes" if r.solved else "no"]
        cells += [str(n) for n in (r.requests, r.prompt_tokens, r.output_tokens)]
        cells += [str(n) for n in (r.computed, r.generated, r.tools)]
        cells += [r.stop + (" (edited the test)" if r.tests_changed else ""), f"{r.seconds:.0f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def summary(rows: list[Row]) -> str:
    lines = [
        "",
        "| agent | solved | requests | prompt tok | output tok | time s |",
        "|---|---|---|---|---|---|",
    ]
    for agent in dict.fromkeys(r.agent for r in rows):
        mine = [r for r in rows if r.agent == agent]
        solved = sum(r.solved for r in mine)
        sums = [
            sum(getattr(r, f) for r in mine) for f in ("requests", "prompt_tokens", "output_tokens")
        ]
        secs = sum(r.seconds for r in mine)
        cells = [agent, f"{solved}/{len(mine)}", *map(str, sums), f"{secs:.0f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


AGENTS = [f"unicum:{name}" for name in UNICUM_SETS] + list(MINI_CONFIGS)


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument(
        "--base-url", default=os.environ.get("UNICUM_BASE_URL", "http://127.0.0.1:8631/v1")
    )
    p.add_argument("--model", default=os.environ.get("UNICUM_MODEL", "qwen-1.5b"))
    p.add_argument(
        "--agents",
        default="unicum:full,unicum:lean,mini",
        help=f"comma-separated, from {', '.join(AGENTS)}",
    )
    p.add_argument(
        "--tasks", default="all", help=f"comma-separated, from {', '.join(t.name for t in TASKS)}"
    )
    p.add_argument("--max-turns", type=int, default=15, help="turns (mini: steps) per run")
    p.add_argument("--timeout", type=float, default=900.0, help="seconds per run, in all")
    p.add_argument(
        "--context-policy",
        choices=["ours", "masking", "full"],
        default="ours",
        help="passed to Unicum's CLI (--context-policy)",
    )
    p.add_argument(
        "--reply-cap",
        type=int,
        default=REPLY_CAP,
        help="max tokens of each reply, both agents (Unicum: UNICUM_MAX_OUTPUT_TOKENS)",
    )
    p.add_argument("--work", default=str(WORK), help="where the projects and logs are kept")
    p.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    return p.parse_args(argv)


def choose(args: argparse.Namespace) -> tuple[list[BenchTask], list[str]]:
    by_name = {t.name: t for t in TASKS}
    names = list(by_name) if args.tasks == "all" else [n.strip() for n in args.tasks.split(",")]
    agents = [a.strip() for a in args.agents.split(",") if a.strip()]
    bad = [n for n in names if n not in by_name] + [a for a in agents if a not in AGENTS]
    if bad:
        raise SystemExit(
            f"tasks.py: unknown {', '.join(bad)} (tasks: {', '.join(by_name)}; agents: {', '.join(AGENTS)})"
        )
    return [by_name[n] for n in names], agents


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    tasks, agents = choose(args)
    limits = Limits(args.max_turns, args.timeout, args.context_policy, args.reply_cap)
    proxy = CountingProxy(args.base_url).start()
    rows: list[Row] = []
    started = time.monotonic()
    try:
        for task in tasks:
            for agent in agents:
                row = run_one(task, agent, proxy, args, limits)
                rows.append(row)
                if args.json:  # after each run: a long bench cut short keeps what it measured
                    Path(args.json).write_text(json.dumps([asdict(r) for r in rows], indent=1))
                print(
                    f"# {row.task} {row.agent}: {'solved' if row.solved else 'not solved'} "
                    f"({row.stop}, {row.requests} requests, {row.seconds:.0f}s)",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        proxy.stop()
    print(
        f"context policy: {args.context_policy}; max turns {args.max_turns}; "
        f"reply cap {args.reply_cap}; model {args.model}"
    )
    print(table(rows))
    print(summary(rows))
    print(f"\n{len(rows)} runs in {time.monotonic() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
