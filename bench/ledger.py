"""Ledger costs: time added to the agent's path per request, and report time over 100,000 rows.

    python bench/ledger.py [requests=10000] [report_rows=100000]

Part 1 drives the real accounting hooks (ledger recorder + budget guard, as `create_agent` wires
them) through 10,000 requests while the background flusher writes to a real file; it times the
hook calls the agent makes per request (`before_request` + `on_response`), against the same loop
with no-op hooks measured in the same run. Part 2 fills a ledger with 100,000 rows (90 days, 1,000
sessions, 10,000 tasks) and times each report as `cli.py usage --by X` makes it (SQL, Rich table
and daily chart rendered to a buffer), in-process after the imports.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from core.agent import (  # noqa: E402
    AgentHooks,
    BudgetHooks,
    HookList,
    LedgerHooks,
)
from core.ledger import (  # noqa: E402
    BudgetGuard,
    Filter,
    Ledger,
    LedgerRow,
    Limit,
    connect,
    grouped,
    insert_rows,
    load_prices,
    local_day,
)
from my_agent.messages import Message, ModelResponse, TextBlock, Usage  # noqa: E402


def per_request(hooks: AgentHooks, n: int) -> list[float]:
    samples = []
    for i in range(n):
        response = ModelResponse(
            Message("assistant", [TextBlock("ok")]),
            Usage(input=1200 + i % 50, cache_read=30_000, output=150),
            "end_turn",
            "claude-sonnet-4-20250514",
            0.4,
            2.0,
        )
        if i % 10 == 0:
            hooks.on_task_start("task")
        start = time.perf_counter()
        hooks.before_request(1)
        hooks.on_response(response)
        samples.append(time.perf_counter() - start)
    return samples


def bench_record(folder: Path, n: int) -> None:
    ledger = Ledger(folder / "ledger.db")
    recorder = LedgerHooks(
        ledger,
        load_prices(None),
        "bench-session",
        "bench-project",
        "anthropic",
        "claude-sonnet-4-20250514",
    )
    guard = BudgetGuard(
        [
            Limit("session", "usd", 1e9, "--budget-usd"),
            Limit("task", "tokens", 1e12, "--budget-tokens"),
        ],
        recorder.measure,
        notify=lambda w: None,
    )
    base = per_request(HookList([AgentHooks()]), n)
    samples = per_request(HookList([recorder, BudgetHooks(guard), AgentHooks()]), n)
    start = time.perf_counter()
    ledger.close()
    closing = time.perf_counter() - start
    written = connect(ledger.path).execute("SELECT COUNT(*) FROM requests").fetchone()[0]
    added = [s - statistics.median(base) for s in samples]
    ms = sorted(x * 1000 for x in added)
    print(
        f"record {n:,} requests: added per request mean {statistics.mean(ms):.4f} ms, "
        f"p50 {ms[len(ms) // 2]:.4f} ms, p99 {ms[int(len(ms) * 0.99)]:.4f} ms, "
        f"max {ms[-1]:.3f} ms (no-op hooks: {statistics.median(base) * 1e6:.1f} us)"
    )
    print(f"  rows written {written:,}; final flush at close {closing * 1000:.1f} ms")


def fill(path: Path, rows: int) -> None:
    rng = random.Random(7)
    models = [
        ("openai", "gpt-4o"),
        ("anthropic", "claude-sonnet-4-20250514"),
        ("deepseek", "deepseek-chat"),
        ("zhipu", "glm-5.1"),
        ("ollama", "qwen2.5-coder"),
    ]
    now = time.time()
    batch = []
    for i in range(rows):
        ts = now - (rows - i) * (90 * 86400 / rows)
        session = f"s{i // 100}"
        provider, model = models[(i // 100) % len(models)]
        batch.append(
            LedgerRow(
                ts,
                local_day(ts),
                session,
                f"{session}/{i // 10}",
                f"proj-{i // 10_000}",
                provider,
                model,
                rng.randint(100, 5000),
                rng.randint(0, 40_000),
                rng.randint(0, 2000),
                rng.randint(10, 900),
                0,
                1500.0,
                400.0,
                "end_turn",
                rng.random() / 50,
                False,
            )
        )
    db = connect(path)
    insert_rows(db, batch)
    db.close()


def bench_report(folder: Path, rows: int) -> None:
    from ui.subcommands import report_text

    path = folder / "report.db"
    fill(path, rows)
    db = connect(path)
    for by in ("day", "task", "session", "model"):
        runs = []
        for _ in range(7):
            start = time.perf_counter()
            report_text(db, by, Filter())
            runs.append(time.perf_counter() - start)
        start = time.perf_counter()
        groups = grouped(db, by, Filter())  # what --json reads: every group
        every = time.perf_counter() - start
        print(
            f"report --by {by:<7} over {rows:,} rows: median {statistics.median(runs) * 1000:6.1f}"
            f" ms (table of the newest 20 of {len(groups):,} groups; all groups for --json: "
            f"{every * 1000:.1f} ms)"
        )
    db.close()
    bench_cli(folder, path)


def bench_cli(folder: Path, db_path: Path) -> None:
    """The whole `python cli.py usage` process, against `python -c pass` in the same run."""
    home = folder / "home"
    home.mkdir()
    db_path.rename(home / "ledger.db")
    env = {**os.environ, "UNICUM_HOME": str(home)}

    def timed(cmd: list[str]) -> float:
        runs = []
        for _ in range(5):
            start = time.perf_counter()
            subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, check=True)
            runs.append(time.perf_counter() - start)
        return statistics.median(runs)

    base = timed([sys.executable, "-c", "pass"])
    usage = timed([sys.executable, "cli.py", "usage", "--by", "day"])
    print(
        f"cli.py usage --by day, whole process: {usage * 1000:.0f} ms "
        f"(python -c pass: {base * 1000:.0f} ms)"
    )


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        bench_record(Path(tmp), n)
        bench_report(Path(tmp), rows)


if __name__ == "__main__":
    main()
