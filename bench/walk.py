"""Project-file walk speed on a generated tree: the code map's walk and the search walk.

    python bench/walk.py [--files 20000] [--tree DIR] [--old /work/base]

The generated tree has nested .gitignore files (with a negation), .git/info/exclude, skipped
and ignored folders; `--tree` walks an existing folder instead. `--old DIR` also times the code
map walker of another checkout (in a child process, so the two `core` packages never meet).
Median and best of 7 runs after one warm-up: on a busy machine the best is the steadier figure.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.codemap import walk_sources
from my_agent.walk import walk

ROOT_IGNORE = "\n".join(
    ["# generated", "*.log", "!keep.log", "build/", "dist/", "*.pyc", "/coverage", "docs/**/gen"]
    + [f"*.tmp{n}" for n in range(12)]
)
KINDS = (".py", ".js", ".ts", ".go", ".md", ".txt", ".log", ".json")


def make_tree(root: Path, files: int) -> None:
    """`files` files in 3-level folders; a tenth of the folders carry their own .gitignore."""
    (root / ".git" / "info").mkdir(parents=True)
    (root / ".git" / "info" / "exclude").write_text("secret/\n*.bak\n")
    (root / ".gitignore").write_text(ROOT_IGNORE + "\n")
    for skipped in ("node_modules/pkg", "build", "secret"):
        (root / skipped).mkdir(parents=True)
        for n in range(50):
            (root / skipped / f"f{n}.js").write_text("x = 1\n")
    per_dir = 25
    for d in range(files // per_dir):
        folder = root / f"a{d % 8}" / f"b{d % 40}" / f"c{d}"
        folder.mkdir(parents=True)
        if d % 10 == 0:
            (folder / ".gitignore").write_text("*.txt\n!keep.txt\ngen/\n")
        for n in range(per_dir):
            (folder / f"m{n}{KINDS[n % len(KINDS)]}").write_text("pass\n")


RUNS = 7


def timed(run: Callable[[], int]) -> tuple[str, int]:
    count = run()
    samples = []
    for _ in range(RUNS):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return f"{statistics.median(samples) * 1000:6.1f} ms (best {min(samples) * 1000:6.1f})", count


OLD_SCRIPT = """
import statistics, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from core.codemap.walk import walk_sources
try:
    from my_agent.walk import walk
except ImportError:  # before the redesign the search walker was tools/ignore.py
    from tools.ignore import walk
tree, runs = Path(sys.argv[2]), int(sys.argv[3])
for name, run in (
    ("search", lambda: sum(1 for _ in walk(tree))),
    ("codemap", lambda: len(walk_sources(tree, max_files=10**9).files)),
):
    count, samples = run(), []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    median, best = statistics.median(samples) * 1000, min(samples) * 1000
    print(f"{name}|{median:6.1f} ms (best {best:6.1f})|{count}")
"""


def old_walks(old: Path, tree: Path) -> dict[str, tuple[str, int]]:
    """{"search" | "codemap": (timing, files)} for the walkers of another checkout."""
    out = subprocess.run(
        [sys.executable, "-c", OLD_SCRIPT, str(old), str(tree), str(RUNS)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = (line.split("|") for line in out.splitlines())
    return {name: (timing, int(count)) for name, timing, count in rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--tree", type=Path, help="walk this folder instead of a generated one")
    parser.add_argument("--old", type=Path, help="another checkout whose code map walk to time")
    args = parser.parse_args()
    print(f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        tree = args.tree or Path(tmp)
        if not args.tree:
            make_tree(tree, args.files)
        total = sum(len(names) for _, _, names in os.walk(tree))
        print(f"tree: {total:,} files on disk")
        ms, n = timed(lambda: sum(1 for _ in walk(tree)))
        print(f"  search walk (my_agent.walk):    {ms}, {n:,} project files")
        ms, n = timed(lambda: len(walk_sources(tree, max_files=10**9).files))
        print(f"  code map walk (walk_sources):   {ms}, {n:,} source files")
        if args.old:
            old = old_walks(args.old, tree)
            print(
                f"  old search walk ({args.old}):   {old['search'][0]}, {old['search'][1]:,} files"
            )
            ms, n = old["codemap"]
            print(f"  old code map walk ({args.old}): {ms}, {n:,} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
