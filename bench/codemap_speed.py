"""The code map's speed targets on the standard library, in CPU time (the machine is shared):
cold build (one process) against Aider's tags in the same run, `refs` median, a one-file
update, and `impact` within its default time bound.

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

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.codemap_aider import AIDER_PYTHON, INSTALL
from core.codemap import CodeIndex, impact, references

REF_NAMES = ("urlopen", "getaddrinfo", "Thread", "parse_args", "dumps", "TextIOWrapper",
             "make_archive", "deepcopy", "isclass", "run")  # fmt: skip
IMPACT_NAMES = ("assertTrue", "assertEqual", "join", "TestCase")


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


def questions(index: CodeIndex, tree: Path) -> None:
    times = []
    for name in REF_NAMES:
        start = time.process_time()
        _, sites = references(index.db, name, cache=index.cache)
        times.append(time.process_time() - start)
    print(
        f"  refs: median {statistics.median(times) * 1000:.1f} CPU-ms, max "
        f"{max(times) * 1000:.0f} over {len(REF_NAMES)} names, one after another (target <= 30)"
    )
    target = tree / "json" / "decoder.py"
    updates = []
    for n in range(5):
        target.write_text(target.read_text() + f"\n\ndef bench_added_{n}():\n    return {n}\n")
        start = time.process_time()
        index.update_files(["json/decoder.py"])
        updates.append(time.process_time() - start)
    print(
        f"  one-file update (json/decoder.py): median {statistics.median(updates) * 1000:.1f} "
        "CPU-ms (target <= 50)"
    )
    for name in IMPACT_NAMES:
        start = time.perf_counter()
        found = impact(index.db, name, max_depth=3, limit=10_000, cache=index.cache)
        took = time.perf_counter() - start
        print(
            f"  impact {name} (depth 3, default 1 s bound): {len(found.dependents)} dependents "
            f"in {took:.2f} s wall; left out {found.left_out}"
        )


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
        questions(index, tree)
        index.close()
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
