"""Project-file walk speed on a generated tree: the code map's walk and the search walk.

    python bench/walk.py [--files 20000] [--old /work/base]

The tree has nested .gitignore files (with a negation), .git/info/exclude, skipped and
ignored folders. `--old DIR` also times the code map walker of another checkout (run in a
child process so the two `core` packages never meet). Medians of 5 runs after one warm-up.
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


def timed(run: Callable[[], int]) -> tuple[float, int]:
    count = run()
    samples = []
    for _ in range(5):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000, count


OLD_SCRIPT = """
import statistics, sys, time
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from core.codemap import walk_sources
tree = Path(sys.argv[2])
count = len(walk_sources(tree).files)
samples = []
for _ in range(5):
    start = time.perf_counter()
    walk_sources(tree)
    samples.append(time.perf_counter() - start)
print(f"{statistics.median(samples) * 1000:.1f} {count}")
"""


def old_codemap(old: Path, tree: Path) -> tuple[float, int]:
    out = subprocess.run(
        [sys.executable, "-c", OLD_SCRIPT, str(old), str(tree)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return float(out[0]), int(out[1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=20_000)
    parser.add_argument("--old", type=Path, help="another checkout whose code map walk to time")
    args = parser.parse_args()
    print(f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp)
        make_tree(tree, args.files)
        total = sum(len(names) for _, _, names in os.walk(tree))
        print(f"tree: {total:,} files on disk")
        ms, n = timed(lambda: sum(1 for _ in walk(tree)))
        print(f"  search walk (my_agent.walk):      {ms:7.1f} ms, {n:,} project files")
        ms, n = timed(lambda: len(walk_sources(tree, max_files=10**9).files))
        print(f"  code map walk (walk_sources):     {ms:7.1f} ms, {n:,} source files")
        if args.old:
            ms, n = old_codemap(args.old, tree)
            print(f"  old code map walk ({args.old}): {ms:7.1f} ms, {n:,} source files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
