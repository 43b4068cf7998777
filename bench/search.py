"""search_files against `rg` and `grep -rn` on a large real tree (this Python's standard library).

Same run, same tree, same patterns; case-sensitive, then case-insensitive (the tool's default). search_files runs in-process through the tool
registry (as the agent calls it); rg and grep run as processes. The tool skips site-packages and
__pycache__ (its skip table), so the baselines are told to skip them too.
Targets: search_files within 1.5x of rg; the pure-Python fallback (rg hidden from PATH) within
3x of grep -rn.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.base import ToolContext  # noqa: E402
from tools.registry import Registry  # noqa: E402

PATTERNS = ["def ", "import os", r"class \w+Error", r"self\.assert\w+\(", "zzz_not_there_qq"]
EXCLUDED = ("site-packages", "__pycache__")


def timed(contenders: dict, runs: int) -> dict[str, float]:
    """Median seconds per contender; runs are interleaved so load changes hit all alike."""
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(runs):
        for name, fn in contenders.items():
            start = time.perf_counter()
            fn()
            samples[name].append(time.perf_counter() - start)
    return {name: statistics.median(values) for name, values in samples.items()}


def tool_runner(tree: Path, pattern: str, hide_rg: bool, fold: bool):
    registry = Registry.default()
    ctx = ToolContext(workspace=tree, home=Path("/tmp/unicum-bench-home"))
    args = {"pattern": pattern, "ignore_case": fold}

    def run() -> None:
        saved = os.environ.get("PATH", "")
        if hide_rg:
            os.environ["PATH"] = ""
        try:
            out = registry.execute("search_files", args, ctx)
        finally:
            os.environ["PATH"] = saved
        assert not out.is_error, out.content
        engine = out.data["engine"]
        assert engine == ("python" if hide_rg else "rg"), engine

    return run


def proc_runner(cmd: list[str], tree: Path):
    return lambda: subprocess.run(
        cmd, cwd=tree, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )


def measure(tree: Path, fold: bool, runs: int) -> dict[str, float]:
    rg, grep = shutil.which("rg"), shutil.which("grep")
    flag = ["-i"] if fold else []
    totals: dict[str, float] = {}
    for pattern in PATTERNS:
        contenders = {"fallback": tool_runner(tree, pattern, True, fold)}
        if grep:
            excl = [f"--exclude-dir={d}" for d in EXCLUDED]
            contenders["grep"] = proc_runner(
                [grep, "-rnIE", *flag, *excl, "-e", pattern, "."], tree
            )
        if rg:
            globs = [a for d in EXCLUDED for a in ("-g", f"!{d}/")]
            contenders["rg"] = proc_runner([rg, "-n", *flag, *globs, "-e", pattern, "."], tree)
            contenders["tool"] = tool_runner(tree, pattern, False, fold)
        row = timed(contenders, runs)
        for key, value in row.items():
            totals[key] = totals.get(key, 0.0) + value
        print(f"{pattern!r:24} " + "  ".join(f"{k} {v * 1000:6.0f} ms" for k, v in row.items()))
    return totals


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    tree = Path(sysconfig.get_paths()["stdlib"])
    print(f"tree: {tree}  runs: {runs} (median, interleaved)")
    for fold in (False, True):
        print("case-insensitive (-i)" if fold else "case-sensitive")
        totals = measure(tree, fold, runs)
        if "rg" in totals:
            print(
                f"  search_files (rg)     {totals['tool'] * 1000:6.0f} ms vs rg "
                f"{totals['rg'] * 1000:6.0f} ms: {totals['tool'] / totals['rg']:.2f}x "
                "(target <= 1.5x)"
            )
        if "grep" in totals:
            print(
                f"  search_files (python) {totals['fallback'] * 1000:6.0f} ms vs grep -rn "
                f"{totals['grep'] * 1000:6.0f} ms: {totals['fallback'] / totals['grep']:.2f}x "
                "(target <= 3x)"
            )


if __name__ == "__main__":
    main()
