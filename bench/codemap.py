"""Code map figures on trees nobody here wrote: who-calls-what accuracy against ground truth,
build speed, refresh, update, query, the warm session map, peak memory; Aider beside it.

    python bench/codemap.py [--tree DIR] [--other DIR ...] [--workers N] [--sample N]
        [--projects rich requests ...] [--ts-modules DIR] [--memory DIR] [--aider PYTHON]
        [--quick] [--accuracy-only] [--misses DIR] [--referee]

Every run ends with the figures checked against referees nobody here wrote (jedi ∪ pyright
for Python, the TypeScript compiler's findReferences), with their versions
(bench/codemap_referee.py); `--referee` prints those and the standard library's speed targets
only (bench/codemap_speed.py: cold build against Aider's tags, refresh, refs, update, impact).

Accuracy: `references` and `impact` (two levels) scored per site against an independent
ground truth, with `rg -w NAME` as the baseline (bench/truth_words.py: one pass for every
name, checked against rg): Python from `ast` (bench/truth_py.py) on projects from
site-packages (copied; their 15 most called and 25 spread targets) and the standard library
(200 targets drawn with seed 19: `targets(sample=200)` in bench/codemap_accuracy.py);
TypeScript from the compiler's own findReferences (bench/truth_ts.js) on zod's sources, when
`--ts-modules` names a node_modules holding `typescript` and `zod` (`npm install --prefix
/tmp/tsbench typescript@5 zod@3`). Aider (`--aider`, default /tmp/aider-venv/bin/python, its
own venv: bench/codemap_aider.py) is measured on the standard library when installed. The
default tree is this interpreter's standard library (copied to a temp folder so the one-file
update can edit it); `--other` adds build-only trees in other languages; `--memory
/usr/include` measures the peak memory of a one-process build in a child process.
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

from bench import codemap_referee, codemap_speed
from bench.codemap_accuracy import SEED, TsTruth, score_project, score_typescript, targets
from bench.codemap_aider import AIDER_PYTHON, aider_figures
from bench.truth_walk import compute
from core.codemap import CodeIndex, CodeMap, definitions, render_overview

OTHER_TREES = (Path("/usr/lib/node_modules/npm/node_modules"),)
STDLIB_SAMPLE = 200  # targets drawn (seed: bench/codemap_accuracy.py SEED) on the big tree
PROJECTS = ("rich", "requests", "prompt_toolkit", "pygments")
TS_MODULES = Path("/tmp/tsbench/node_modules")


def _cpu() -> float:
    t = os.times()
    return t[0] + t[1]


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
    """open_session() with and without the code map (the REPL prompt must not wait), then the
    first task's wait for the overview in the prompt (`overview_in_prompt`; by default it comes
    on demand): on a cold index, and again on the warm one a second session finds."""
    os.environ["UNICUM_HOME"] = str(home)
    os.environ.setdefault("OPENAI_API_KEY", "fake-bench-key")  # no request is sent
    from core.agent import SessionOptions, open_session

    timings, waits, shown = {}, [], []
    for enabled in (False, True, True):
        start = time.perf_counter()
        opts = SessionOptions(  # the overview in the prompt, as it was before on demand
            workspace=tree, provider="openai", codemap=enabled, overview_in_prompt=enabled
        )
        live = open_session(opts, record=False)
        timings[enabled] = time.perf_counter() - start
        if enabled:
            start = time.perf_counter()
            live.agent.system_prompt.start_task("where is the JSON decoder?")
            waits.append(time.perf_counter() - start)
            section = live.agent.system_prompt.section
            code_map = live.code_map
            text = section.text if section else ""
            shown.append(_overview_note(text, bool(text) and text == code_map.early_overview))
            code_map.wait()
            code_map.close()
            _complete(tree, home)  # a cold build may stop at its deadline: finish it
    print(
        f"  session start: open_session {timings[False] * 1000:.0f} ms without the code map, "
        f"{timings[True] * 1000:.0f} ms with it; the first task waited {waits[0]:.2f} s on a "
        f"cold index (cap 8 s; overview: {shown[0]}), {waits[1]:.3f} s on the warm one "
        f"(target <= 0.3 s; overview: {shown[1]})"
    )


def _overview_note(text: str, partial: bool) -> str:
    if not text:
        return "none"
    files = sum(1 for line in text.splitlines()[1:] if line and not line.startswith((" ", "(")))
    return f"{files} files" + (", ranked on the first part" if partial else "")


def warm_map(tree: Path, home: Path) -> None:
    """A session's map on a warm index: refresh + stored graph/ranks + overview, CPU-seconds."""
    _complete(tree, home)
    samples = []
    for _ in range(5):
        before = _cpu()
        cmap = CodeMap(tree, home)
        cmap.start_background(workers=1)
        cmap.wait()
        with cmap.index.lock:
            render_overview(cmap.index.db, "where is the JSON decoder?", 1000)
        samples.append(_cpu() - before)
        cmap.close()
    print(
        f"  warm session map (refresh + graph + overview): median "
        f"{statistics.median(samples):.3f} CPU-s, max {max(samples):.3f} (target <= 0.2)"
    )


def _complete(tree: Path, home: Path) -> None:
    """Finish building and ranking the index, so what follows measures a warm one."""
    cmap = CodeMap(tree, home)
    cmap.refresh(max_seconds=3600)
    with cmap.index.lock:
        render_overview(cmap.index.db, "", 1000)
    cmap.close()


def peak_memory(tree: Path, workers: int) -> None:
    """A one-process (or pooled) build of `tree` in a child process; its peak RSS (VmHWM:
    ru_maxrss would carry over the forked parent's size across exec)."""
    import subprocess

    code = (
        "import resource, sys, tempfile, pathlib\n"
        "sys.path.insert(0, sys.argv[1])\n"
        "from core.codemap import CodeIndex\n"
        "d = tempfile.mkdtemp()\n"
        "i = CodeIndex(pathlib.Path(sys.argv[2]), pathlib.Path(d) / 'm.db')\n"
        "s = i.refresh(max_seconds=3600, workers=int(sys.argv[3]))\n"
        "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM')][0].split()[1]\n"
        "print(s.lines, s.seconds, int(hwm) / 1024,"
        " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)\n"
    )
    root = str(Path(__file__).resolve().parent.parent)
    out = subprocess.run(
        [sys.executable, "-c", code, root, str(tree), str(workers)],
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        lines, seconds, parent, child = out.stdout.split()
    except ValueError:
        print(f"  peak memory: the build failed: {out.stderr.strip()[-300:]}")
        return
    print(
        f"  peak memory, {workers} worker(s), {int(lines):,} lines in {float(seconds):.0f} s: "
        f"{float(parent):.0f} MiB in the indexing process"
        + (f", {float(child):.0f} MiB per worker" if workers > 1 else "")
        + " (target <= 100 MiB)"
    )


def python_accuracy(tmp: Path, args: argparse.Namespace, stdlib_tree: Path | None) -> None:
    import importlib.util

    print("Accuracy against ground truth (refs = every listed site; >= 0.5 = confident only):")
    for name in args.projects:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            print(f"  {name}: not installed, skipped")
            continue
        root = tmp / f"proj-{name}"
        _copy(Path(next(iter(spec.submodule_search_locations))), root / name)
        _score(name, root, tmp, 0, args.misses)
    if stdlib_tree is not None:
        truth = _score("stdlib", stdlib_tree, tmp, args.sample, args.misses, args.seed)
        aider_figures(args.aider, stdlib_tree, tmp, truth, targets(truth, args.sample, args.seed))


def _score(name: str, root: Path, tmp: Path, sample: int, misses: Path | None, seed: int = SEED):
    start = time.perf_counter()
    truth = compute(str(root))
    took = time.perf_counter() - start
    index = CodeIndex(root, tmp / f"acc-{name}.db")
    index.refresh(max_seconds=3600, workers=1)
    start = time.perf_counter()
    wrong = misses / f"misses-{name}.txt" if misses else None
    score_project(f"{name} (truth {took:.0f} s)", root, truth, index, sample, wrong, seed)
    print(f"    scored in {time.perf_counter() - start:.0f} s")
    index.close()
    return truth


def typescript_accuracy(tmp: Path, modules: Path) -> None:
    import json
    import subprocess

    zod = modules / "zod" / "src"
    if not (modules / "typescript").is_dir() or not zod.is_dir():
        print(f"  TypeScript: {modules} has no typescript and zod; skipped")
        return
    root = tmp / "proj-zod"
    shutil.copytree(zod, root / "src")
    script = Path(__file__).resolve().parent / "truth_ts.js"
    out = subprocess.run(
        ["node", str(script), str(modules), str(root)], capture_output=True, text=True, check=True
    )
    index = CodeIndex(root, tmp / "acc-zod.db")
    index.refresh(max_seconds=3600, workers=1)
    score_typescript("zod 3 (TypeScript sources)", root, TsTruth(json.loads(out.stdout)), index)
    index.close()


def speed(args: argparse.Namespace, tree: Path, tmp: Path) -> None:
    print(f"Python tree: {args.tree} (copied; site-packages left out)")
    index, _, _ = build(tree, tmp / "py.db", args.workers)
    single, _, _ = build(tree, tmp / "py1.db", 1)
    single.close()
    refresh_and_update(index, tree)
    codemap_speed.refs_speed(tree, tmp / "py.db")
    codemap_speed.impact_speed(index)
    accuracy(index, tree)
    index.close()
    warm_map(tree, tmp / "home")
    for n, other in enumerate(t for t in args.other if t.is_dir()):
        print(f"Other tree: {other}")
        other_index = build(other, tmp / f"other{n}.db", args.workers)[0]
        langs = other_index.db.execute(
            "SELECT lang, COUNT(*) FROM files GROUP BY lang ORDER BY 2 DESC"
        ).fetchall()
        print("  languages: " + ", ".join(f"{lang} {count}" for lang, count in langs))
        other_index.close()
    session_start(tree, tmp / "session-home")
    for big in args.memory:
        print(f"Memory: {big}")
        peak_memory(big, 1)
        peak_memory(big, 2)


def referee() -> None:
    """The figures checked against referees nobody here wrote, each with its version."""
    print("Against the referee, projects the resolver was not tuned on:")
    codemap_referee.main(["--report"])
    print("Against the referee, the tuning projects:")
    codemap_referee.main(["--tune"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", type=Path, default=Path(sysconfig.get_paths()["stdlib"]))
    parser.add_argument("--other", type=Path, nargs="*", default=list(OTHER_TREES))
    parser.add_argument(
        "--workers", type=int, help="parser processes (default: as the code map picks)"
    )
    parser.add_argument("--projects", nargs="*", default=list(PROJECTS))
    parser.add_argument("--ts-modules", type=Path, default=TS_MODULES)
    parser.add_argument("--memory", type=Path, nargs="*", default=[], help="e.g. /usr/include")
    parser.add_argument("--quick", action="store_true", help="no ground truth on the big tree")
    parser.add_argument(
        "--sample", type=int, default=STDLIB_SAMPLE, help="targets drawn on the big tree"
    )
    parser.add_argument(
        "--seed", type=int, default=SEED,
        help=f"the big tree's draw (default {SEED}, the one the rules were fixed on)",
    )  # fmt: skip
    parser.add_argument("--misses", type=Path, help="write each wrong refs site here")
    parser.add_argument("--accuracy-only", action="store_true", help="no speed figures")
    parser.add_argument(
        "--referee", action="store_true",
        help="the issue-30 figures: jedi ∪ pyright / tsserver on held-out projects, then the "
        "standard library's speed targets (bench/codemap_referee.py, bench/codemap_speed.py)",
    )  # fmt: skip
    parser.add_argument(
        "--aider", type=Path, default=AIDER_PYTHON, help="the python of aider-chat's own venv"
    )
    args = parser.parse_args()
    if args.referee:
        referee()
        print("Speed on the standard library (CPU time and wall clock):")
        return codemap_speed.main([])
    print(
        f"load average at the start: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
        f"on {os.cpu_count()} cores"
    )
    with tempfile.TemporaryDirectory() as tmp:
        tree = _copy(args.tree, Path(tmp) / "tree")
        python_accuracy(Path(tmp), args, None if args.quick else tree)
        typescript_accuracy(Path(tmp), args.ts_modules)
        if not args.accuracy_only:
            speed(args, tree, Path(tmp))
    referee()
    print(
        f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
        f"on {os.cpu_count()} cores"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
