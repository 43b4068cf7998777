"""Start-up time: `python cli.py --help` against `python -c pass`, measured in the same run."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def timed(cmd: list[str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    base = timed([sys.executable, "-c", "pass"], runs)
    helptime = timed([sys.executable, "cli.py", "--help"], runs)
    print(f"python -c pass      {base * 1000:7.1f} ms")
    print(f"cli.py --help       {helptime * 1000:7.1f} ms  ({helptime / base:.1f}x baseline, "
          f"+{(helptime - base) * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
