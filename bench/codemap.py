"""Code map figures on trees nobody here wrote: build speed, refresh, update, query, accuracy.

    python bench/codemap.py [--tree DIR] [--other DIR ...] [--workers N]

The default tree is this interpreter's standard library (copied to a temp folder so the
one-file update can edit it); `--other` adds build-only trees in other languages (default:
npm's bundled JavaScript, when present; `--other /usr/include` adds 2.5M lines of C).
Wall-clock figures: the load average is printed so a busy machine is visible.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import statistics
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.codemap import CodeIndex, definitions, references

REF_NAMES = (
    "urlopen",
    "getaddrinfo",
    "Thread",
    "parse_args",
    "dumps",
    "TextIOWrapper",
    "make_archive",
    "deepcopy",
    "isclass",
    "run",
)
OTHER_TREES = (Path("/usr/lib/node_modules/npm/node_modules"),)  # add /usr/include for C


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(
        src,
        dst,
        symlinks=True,
        ignore=shutil.ignore_patterns("site-packages", "__pycache__", "*.pyc", "*.so"),
    )
    return dst


def build(tree: Path, db: Path, workers: int | None) -> tuple[CodeIndex, float, int]:
    index = CodeIndex(tree, db)
    before = os.times()
    stats = index.refresh(max_seconds=3600, workers=workers)
    after = os.times()
    cpu = sum(after[:4]) - sum(before[:4])  # user + system, this process and its workers
    print(
        f"  full build ({workers or 'auto'} workers): {stats.parsed} files, "
        f"{stats.lines:,} lines in {stats.seconds:.2f} s = {stats.lines / stats.seconds:,.0f} "
        f"lines/s wall clock; {cpu:.1f} CPU-s = {stats.lines / cpu:,.0f} lines per CPU-second"
    )
    return index, stats.seconds, stats.lines


def refresh_and_update(index: CodeIndex, tree: Path) -> None:
    samples = [index.refresh().seconds for _ in range(5)]
    print(
        f"  no-change refresh: median {statistics.median(samples) * 1000:.0f} ms "
        f"(max {max(samples) * 1000:.0f} ms)"
    )
    target = tree / "json" / "decoder.py"
    if not target.exists():
        target = next(tree.rglob("*.py"))
    rel = target.relative_to(tree).as_posix()
    direct, walked = [], []
    for n in range(5):
        target.write_text(target.read_text() + f"\n\ndef bench_added_{n}():\n    return {n}\n")
        direct.append(index.update_files([rel]).seconds)
        target.write_text(target.read_text() + f"\n\ndef bench_walk_{n}():\n    return {n}\n")
        walked.append(index.refresh().seconds)
    assert definitions(index.db, "bench_walk_4"), "the edit was not indexed"
    print(
        f"  one-file update ({rel}): {statistics.median(direct) * 1000:.1f} ms via update_files, "
        f"{statistics.median(walked) * 1000:.0f} ms via a full stat-walk refresh"
    )


def references_speed(index: CodeIndex) -> None:
    times, counts = [], []
    for name in REF_NAMES:
        start = time.perf_counter()
        _, sites = references(index.db, name)
        times.append(time.perf_counter() - start)
        counts.append(len(sites))
    print(
        f"  references query: median {statistics.median(times) * 1000:.1f} ms, "
        f"max {max(times) * 1000:.1f} ms over {len(REF_NAMES)} names "
        f"({min(counts)}–{max(counts)} sites each)"
    )


def accuracy(index: CodeIndex, tree: Path) -> None:
    wanted = found = files = 0
    missing: list[str] = []
    for (path,) in index.db.execute("SELECT path FROM files WHERE lang='python' ORDER BY path"):
        try:
            tree_ast = ast.parse((tree / path).read_bytes())
        except (SyntaxError, ValueError, OSError):
            continue
        files += 1
        names = {
            (n.name, n.lineno)
            for n in ast.walk(tree_ast)
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)
        }
        have = set(
            index.db.execute(
                "SELECT s.name, s.line FROM symbols s JOIN files f ON f.id = s.file_id "
                "WHERE f.path = ? AND s.kind IN ('function', 'method', 'class')",
                (path,),
            )
        )
        wanted += len(names)
        found += len(names & have)
        missing += [f"{path}:{line} {name}" for name, line in sorted(names - have)][:2]
    print(
        f"  accuracy: {found:,} of {wanted:,} def/class names that ast finds in {files} files "
        f"= {100 * found / max(1, wanted):.2f}%"
    )
    for item in missing[:5]:
        print(f"    missed: {item}")


def session_start(tree: Path, home: Path) -> None:
    """open_session() with and without the code map: the REPL prompt must not wait for it."""
    os.environ["UNICUM_HOME"] = str(home)
    os.environ.setdefault("OPENAI_API_KEY", "fake-bench-key")  # no request is sent
    from core.agent import SessionOptions, open_session

    timings = {}
    for enabled in (False, True):
        start = time.perf_counter()
        opts = SessionOptions(workspace=tree, provider="openai", codemap=enabled)
        live = open_session(opts, record=False)
        timings[enabled] = time.perf_counter() - start
    start = time.perf_counter()
    live.agent.system_prompt.start_task("where is the JSON decoder?")
    waited = time.perf_counter() - start
    print(
        f"  session start: open_session {timings[False] * 1000:.0f} ms without the code map, "
        f"{timings[True] * 1000:.0f} ms with it (index builds in the background); the first "
        f"task then waited {waited:.1f} s (cap 8 s) for a cold {tree.name} index"
    )
    live.code_map.wait()
    live.code_map.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=Path(sysconfig.get_paths()["stdlib"]))
    parser.add_argument("--other", type=Path, nargs="*", default=list(OTHER_TREES))
    parser.add_argument("--workers", type=int, help="parser processes (default: one per core)")
    args = parser.parse_args()
    print(
        f"load average at the start: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
        f"on {os.cpu_count()} cores"
    )
    with tempfile.TemporaryDirectory() as tmp:
        tree = _copy(args.tree, Path(tmp) / "tree")
        print(f"Python tree: {args.tree} (copied; site-packages left out)")
        index, _, _ = build(tree, Path(tmp) / "py.db", args.workers)
        single, _, _ = build(tree, Path(tmp) / "py1.db", 1)
        single.close()
        refresh_and_update(index, tree)
        references_speed(index)
        accuracy(index, tree)
        index.close()
        for n, other in enumerate(t for t in args.other if t.is_dir()):
            print(f"Other tree: {other}")
            other_index = build(other, Path(tmp) / f"other{n}.db", args.workers)[0]
            langs = other_index.db.execute(
                "SELECT lang, COUNT(*) FROM files GROUP BY lang ORDER BY 2 DESC"
            ).fetchall()
            print("  languages: " + ", ".join(f"{lang} {count}" for lang, count in langs))
            other_index.close()
        session_start(tree, Path(tmp) / "home")
    print(
        f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
        f"on {os.cpu_count()} cores"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
