"""What a workspace snapshot costs on a big repository (the shadow git behind /undo).

    python bench/snapshots.py [--files 20000] [--repeat 5]

Builds a git repository of FILES small source files (plus an ignored build folder and one
file over the size limit), then times, with the shadow repository of tools/shadow_git.py:
the first snapshot (everything hashed), a snapshot when nothing changed, one after ten files
changed, and the undo of that step; and the shadow repository's size on disk.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.shadow_git import MAX_FILE_BYTES  # noqa: E402
from tools.snapshots import Snapshots  # noqa: E402


def build_repo(folder: Path, files: int) -> None:
    per_dir = 100
    for n in range(files):
        path = folder / f"pkg{n // per_dir:03d}" / f"mod{n % per_dir:03d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"# module {n}\n" + "def f():\n    return 1\n" * 20)
    (folder / ".gitignore").write_text("build/\n")
    (folder / "build").mkdir()
    for n in range(500):
        (folder / "build" / f"o{n}.o").write_bytes(b"\0" * 2048)
    (folder / "big.bin").write_bytes(b"\1" * (MAX_FILE_BYTES + 1))
    git = ["git", "-c", "user.name=b", "-c", "user.email=b@b", "-C", str(folder)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "init"], check=True)


def timed(action) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def size_of(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def one_round(files: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="unicum-snap-bench-") as tmp:
        repo, home = Path(tmp) / "repo", Path(tmp) / "home"
        build_repo(repo, files)
        snaps = Snapshots(repo, home, "bench")
        figures = {"first": timed(lambda: snaps.after(snaps.before("first")))}
        figures["no change"] = timed(lambda: snaps.after(snaps.before("same")))
        step = snaps.before("edit ten")
        for n in range(10):
            (repo / f"pkg{n:03d}" / "mod000.py").write_text(f"changed {n}\n")
        figures["ten changed"] = timed(lambda: snaps.after(step))
        figures["undo"] = timed(lambda: snaps.undo_turn())
        assert (repo / "pkg000" / "mod000.py").read_text().startswith("# module 0")
        figures["MB"] = size_of(home / "snapshots") / 1e6
        tracked = snaps.git.git("ls-files").decode().count("\n")
        figures["files"] = tracked
        return figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--files", type=int, default=20_000)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args(argv)
    rounds = [one_round(args.files) for _ in range(args.repeat)]
    print(f"{args.files} files, {args.repeat} rounds (median, min–max):")
    for key in ("first", "no change", "ten changed", "undo"):
        values = [r[key] for r in rounds]
        low, high = min(values), max(values)
        print(f"  {key:<12} {statistics.median(values):6.3f}s  ({low:.3f}–{high:.3f})")
    last = rounds[-1]
    print(f"  shadow repository {last['MB']:.1f} MB; {last['files']:.0f} files snapshotted")
    print("  (ignored build/ and the file over the size limit left out)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
