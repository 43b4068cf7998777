"""The code map's speed targets on the standard library, in CPU time (the machine is shared):
cold build (one process) against Aider's tags in the same run, a no-change refresh, `refs`
median, a one-file update, and `impact` within its default time bound; CPU time and wall
clock, each measure repeated.

    python bench/codemap_speed.py [--tree DIR] [--aider PYTHON]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.codemap_aider import AIDER_PYTHON, INSTALL
from core.codemap import IMPACT_SECONDS, CodeIndex, impact, references

REF_NAMES = ("urlopen", "getaddrinfo", "Thread", "parse_args", "dumps", "TextIOWrapper",
             "make_archive", "deepcopy", "isclass", "run")  # fmt: skip
IMPACT_NAMES = ("assertTrue", "assertEqual", "join", "TestCase", "json/decoder.py", "os.py")
REPEAT = 5  # runs of each measure


def _copy(src: Path, dst: Path) -> Path:
    ignore = shutil.ignore_patterns("site-packages", "__pycache__", "*.pyc", "*.so")
    return shutil.copytree(src, dst, symlinks=True, ignore=ignore)


def _cpu_children() -> float:
    t = os.times()
    return t[0] + t[1] + t[2] + t[3]


def cold_build(tree: Path, db: Path) -> tuple[CodeIndex, float]:
    before = _cpu_children()
    index = CodeIndex(tree, db)
    stats = index.refresh(max_seconds=3600, workers=1)
    cpu = _cpu_children() - before
    print(f"  cold build, one process: {stats.lines:,} lines in {cpu:.1f} CPU-s")
    return index, cpu


def aider_tags(python: Path, tree: Path, tmp: Path) -> float | None:
    """Aider's `get_tags` over every file, cold, on its own copy (its cache goes in the tree)."""
    if not python.exists():
        print(f"  Aider: not installed at {python} ({INSTALL}); skipped")
        return None
    root = _copy(tree, tmp / "aider-tree")
    names = tmp / "names.txt"
    names.write_text("run\n")
    home = tmp / "aider-home"
    home.mkdir()
    script = Path(__file__).resolve().parent / "aider_map.py"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    out = subprocess.run(
        [str(python), str(script), str(root), str(names)], capture_output=True, text=True,
        env=env | {"HOME": str(home), "PYTHONPATH": ""}, cwd=root, check=False,
    )  # fmt: skip
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        print(f"  Aider: the run failed: {out.stderr.strip()[-200:]}")
        return None
    found = json.loads(lines[-1])
    version = subprocess.run(
        [str(python), "-c", "import aider; print(aider.__version__)"],
        capture_output=True, text=True, check=False,
    ).stdout.strip()  # fmt: skip
    print(f"  Aider {version} tags, cold: {found['tags_cpu']:.1f} CPU-s ({found['files']} files)")
    return float(found["tags_cpu"])


def _timed(ask, *args, **kwargs) -> tuple[float, float, Any]:
    """(CPU seconds, wall seconds, answer) of one call."""
    cpu, wall = time.process_time(), time.perf_counter()
    answer = ask(*args, **kwargs)
    return time.process_time() - cpu, time.perf_counter() - wall, answer


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f}"


def refresh_speed(index: CodeIndex) -> None:
    runs = [_timed(index.refresh) for _ in range(REPEAT)]
    print(
        f"  no-change refresh: median {_ms([r[0] for r in runs])} CPU-ms, "
        f"{_ms([r[1] for r in runs])} ms wall ({REPEAT} runs)"
    )


def refs_speed(tree: Path, db: Path, passes: int = REPEAT) -> None:
    """The bench's names one after another, `passes` times, each pass on a freshly opened
    index (an empty view cache, as a new session or a one-shot `codemap refs` has)."""
    cpu, wall = [], []
    for _ in range(passes):
        index = CodeIndex(tree, db)
        for name in REF_NAMES:
            took = _timed(references, index.db, name, cache=index.cache)
            cpu.append(took[0])
            wall.append(took[1])
        index.close()
    print(
        f"  refs: median {_ms(cpu)} CPU-ms, {_ms(wall)} ms wall; max {max(cpu) * 1000:.0f} "
        f"CPU-ms over {len(REF_NAMES)} names x {passes} passes, each pass on a freshly opened "
        "index (target <= 30)"
    )


def update_speed(index: CodeIndex, tree: Path) -> None:
    target = tree / "json" / "decoder.py"
    runs = []
    for n in range(REPEAT):
        target.write_text(target.read_text() + f"\n\ndef bench_added_{n}():\n    return {n}\n")
        runs.append(_timed(index.update_files, ["json/decoder.py"]))
    print(
        f"  one-file update (json/decoder.py): median {_ms([r[0] for r in runs])} CPU-ms, "
        f"{_ms([r[1] for r in runs])} ms wall ({REPEAT} edits; target <= 50)"
    )


def impact_speed(index: CodeIndex) -> None:
    """`impact` with its default time bound (1 s), deep and wide enough that the bound is
    what stops it: the wall time must stay within it, and the answer says what it left out."""
    walls = []
    for name in IMPACT_NAMES:
        cpu, wall, found = _timed(
            impact, index.db, name, max_depth=3, limit=10_000, cache=index.cache
        )
        walls.append(wall)
        print(
            f"  impact {name} (depth 3, limit 10,000, default {IMPACT_SECONDS:.0f} s bound): "
            f"{len(found.dependents)} dependents in {wall:.2f} s wall, {cpu:.2f} CPU-s; "
            f"left out {found.left_out}"
        )
    print(
        f"  impact: max {max(walls):.2f} s wall over {len(walls)} questions (bound {IMPACT_SECONDS} s)"
    )


def questions(index: CodeIndex, tree: Path, db: Path) -> None:
    refresh_speed(index)
    refs_speed(tree, db)
    update_speed(index, tree)
    impact_speed(index)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=Path(sysconfig.get_paths()["stdlib"]))
    parser.add_argument("--aider", type=Path, default=AIDER_PYTHON)
    args = parser.parse_args(argv)
    print(f"load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        tree = _copy(args.tree, Path(tmp) / "tree")
        index, ours = cold_build(tree, Path(tmp) / "map.db")
        theirs = aider_tags(args.aider, args.tree, Path(tmp))
        if theirs:
            print(f"  cold build / Aider's tags: {ours / theirs:.2f}x (target <= 0.7)")
        questions(index, tree, Path(tmp) / "map.db")
        index.close()
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
