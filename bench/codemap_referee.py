"""The code map scored against the referee (bench/referee.py: jedi ∪ pyright) on real projects.

    python bench/codemap_referee.py [--tune | --report | --heldout] [--seed N] [--projects a b ...]

Per project, on seeded targets (functions, methods, classes, properties, re-exported names):
precision of every listed site and of the confident ones (confidence >= 0.5), call recall,
all-reference recall (every kind the referee finds, by kind too), and impact recall (two
levels: the functions around the referee's sites, then theirs). A site is a (path, line).
Tuning projects and reported ones are kept apart: `--tune` scores the first, `--report`
(the default) the second; the resolver was changed looking at misses of `--tune` only.
`--heldout` scores a third group whose misses nobody reads — the estimate of a reviewer's
re-run on projects we do not have — copied from pinned releases installed apart from ours:

    python -m venv /tmp/v && /tmp/v/bin/pip install --no-deps --target \
        ~/.cache/unicum-referee/heldout rich==15.0.0 requests==2.34.2 anyio==4.16.0
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.referee import CACHE, FileSyntax, Target, ask, installed, seed_targets, syntax
from core.codemap import CodeIndex, impact, references

TUNE = ("click", "attr", "starlette")
REPORT = ("httpx", "jinja2", "packaging")
HELDOUT = ("rich", "requests", "anyio")  # from HELDOUT_SITE, never looked at when tuning
SEED = 30
CONFIDENT = 0.5
HELDOUT_SITE = CACHE / "heldout"  # `pip install --target` of the held-out releases
DEEPER = 5  # the referee's second level: the callers of at most this many first-level ones


class Tally:
    def __init__(self) -> None:
        self.counts: Counter = Counter()

    def precision(self, found: set, truth: set, label: str) -> None:
        self.counts[label + " tp"] += len(found & truth)
        self.counts[label + " n"] += len(found)

    def recall(self, found: set, truth: set, label: str) -> None:
        self.counts[label + " tp"] += len(found & truth)
        self.counts[label + " n"] += len(truth)

    def ratio(self, label: str) -> str:
        n = self.counts[label + " n"]
        tp = self.counts[label + " tp"]
        return f"{tp / n:.3f} ({tp}/{n})" if n else "— (0)"


def copy_package(name: str, tmp: Path, site: Path | None = None) -> Path | None:
    """A copy of the package `name`: from `site` when given, else as this Python imports it."""
    if site is not None:
        src = site / name
        if not src.is_dir():
            return None
    else:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            return None
        src = Path(next(iter(spec.submodule_search_locations)))
    root = tmp / f"proj-{name}"
    shutil.copytree(src, root / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    return root


def _lines(sites) -> set[tuple[str, int]]:
    return {(p, line) for p, line, _ in sites}


def _kinds(root: Path, sites, memo: dict[str, FileSyntax]) -> dict[tuple[str, int], set[str]]:
    out: dict[tuple[str, int], set[str]] = defaultdict(set)
    for path, line, col in sites:
        out[(path, line)].add(syntax(root, path, memo).kinds.get((line, col), "other"))
    return out


def _dependents(root: Path, sites, memo) -> set[tuple[str, str]]:
    """The functions around the sites ("" at module level); an import is no dependent."""
    return {
        (p, syntax(root, p, memo).enclosing(line))
        for p, line, col in sites
        if syntax(root, p, memo).kinds.get((line, col)) != "import"
    }


def score(root: Path, targets: list[Target], misses: list[str]) -> tuple[str, Tally]:
    memo: dict[str, FileSyntax] = {}
    named, answers = ask(root, [(t.path, t.line, t.column) for t in targets])
    first = {}
    for sites in answers:
        for dep in sorted(_dependents(root, sites, memo))[:DEEPER]:
            if dep[1] and dep not in first:
                where = syntax(root, dep[0], memo).names.get(dep[1])
                if where:
                    first[dep] = (dep[0], *where)
    _, second = ask(root, list(first.values()))
    deeper = dict(zip(first, second, strict=True))
    index = CodeIndex(root, root.parent / f"{root.name}.db")
    index.refresh(max_seconds=3600, workers=1)
    tally = Tally()
    for target, sites in zip(targets, answers, strict=True):
        _score_one(root, index, target, sites, deeper, memo, tally, misses)
    index.close()
    return named, tally


def _score_one(root, index, target, sites, deeper, memo, tally, misses) -> None:
    name = f"{target.path}:{target.qualified}"
    kinds = _kinds(root, sites, memo)
    for where in [w for w, k in kinds.items() if k == {"definition"}]:
        del kinds[where]  # another definition of the name (an overload), not a reference
    truth = set(kinds)
    _, listed = references(index.db, name)
    found = {(s.path, s.line) for s in listed}
    sure = {(s.path, s.line) for s in listed if s.confidence >= CONFIDENT}
    tally.precision(found, truth, "P all")
    tally.precision(sure, truth, "P confident")
    calls = {k for k, v in kinds.items() if v & {"call", "decorator", "base"}}
    tally.recall(found, calls, "R call")
    tally.recall(sure, calls, "R call confident")
    tally.recall(found, truth, "R all")
    for where, found_kinds in kinds.items():
        for kind in found_kinds:
            tally.recall(found & {where}, {where}, f"K {kind}")
    depends = _dependents(root, sites, memo)
    for dep in list(depends):
        depends |= _dependents(root, deeper.get(dep, ()), memo)
    depends.discard((target.path, target.qualified))
    reached = impact(index.db, name, max_depth=2, limit=100_000).dependents
    got = {(d.path, d.symbol) for d in reached}
    tally.recall(got, depends, "R impact")
    misses += [f"impact {name} {p}:{fn or '<module>'}" for p, fn in sorted(depends - got)]
    tally.counts["targets " + target.kind] += 1
    for p, line in sorted(found - truth):
        conf = max(s.confidence for s in listed if (s.path, s.line) == (p, line))
        misses.append(f"fp {conf:.2f} {name} {p}:{line}")
    for p, line in sorted((found - sure) & calls):
        misses.append(f"guessed {name} {p}:{line}")
    for p, line in sorted(truth - found):
        misses.append(f"fn {'/'.join(sorted(kinds[(p, line)]))} {name} {p}:{line}")


LABELS = ("P all", "P confident", "R call", "R call confident", "R all", "R impact")
KINDS = ("call", "decorator", "base", "value", "attribute", "property", "annotation", "import")
KINDS += ("store",)


def print_tally(label: str, tally: Tally) -> None:
    kinds = ", ".join(
        f"{k} {tally.counts['targets ' + k]}"
        for k in ("function", "method", "class", "property", "reexport", "private")
        if tally.counts["targets " + k]
    )
    print(f"  {label} (targets: {kinds})")
    for what in LABELS:
        print(f"    {what:17} {tally.ratio(what)}")
    by_kind = [f"{k} {tally.ratio('K ' + k)}" for k in KINDS if tally.counts[f"K {k} n"]]
    print("    recall by kind: " + "; ".join(by_kind))


TS_TUNE = ("zod", "rxjs", "@reduxjs/toolkit", "@trpc/server", "@tanstack/form-core")
TS_TUNE += ("@tanstack/store", "@tanstack/router-core")  # their misses read on 2026-12-03
TS_REPORT = ("immer", "mobx", "@tanstack/query-core")  # mobx, query-core: held out
TS_HELDOUT = ("@trpc/client", "@tanstack/pacer", "@tanstack/virtual-core", "@tanstack/db")
TS_HELDOUT += ("@tanstack/router-generator",)  # scored, misses never read


def typescript(name: str, tmp: Path, args, misses: list[str]) -> None:
    """The TypeScript sources an npm package ships (`src/`, with its package.json), scored
    against the compiler's findReferences (bench/referee_ts.js)."""
    import json
    import subprocess

    from bench.referee import MODULES

    src = MODULES / name / "src"
    if not src.is_dir():
        print(f"  {name}: not in {MODULES}, skipped")
        return
    root = tmp / f"ts-{name}"
    shutil.copytree(src, root / "src")
    for config in ("package.json", "tsconfig.json"):  # as a checkout of the project has them
        if (MODULES / name / config).is_file():
            shutil.copy(MODULES / name / config, root / config)
    script = Path(__file__).resolve().parent / "referee_ts.js"
    out = subprocess.run(
        ["node", str(script), str(MODULES), str(root), str(args.seed), str(args.per_kind), name],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    answer = json.loads(out.stdout)
    index = CodeIndex(root, tmp / f"ts-{name}.db")
    index.refresh(max_seconds=3600, workers=1)
    tally = Tally()
    for target in answer["targets"]:
        kinds: dict[tuple[str, int], set[str]] = defaultdict(set)
        for path, line, kind, _ in target["sites"]:
            kinds[(path, line)].add(kind)
        label = f"{target['path']}:{target['qualified']}"
        _, listed = references(index.db, label)
        found = {(s.path, s.line) for s in listed}
        sure = {(s.path, s.line) for s in listed if s.confidence >= CONFIDENT}
        truth = set(kinds)
        tally.precision(found, truth, "P all")
        tally.precision(sure, truth, "P confident")
        calls = {k for k, v in kinds.items() if v & {"call", "base"}}
        tally.recall(found, calls, "R call")
        tally.recall(sure, calls, "R call confident")
        tally.recall(found, truth, "R all")
        for where, found_kinds in kinds.items():
            for kind in found_kinds:
                tally.recall(found & {where}, {where}, f"K {kind}")
        tally.counts["targets " + target["kind"]] += 1
        for p, n in sorted(found - truth):
            conf = max(s.confidence for s in listed if (s.path, s.line) == (p, n))
            misses.append(f"fp {conf:.2f} {label} {p}:{n}")
        misses += [f"guessed {label} {p}:{n}" for p, n in sorted((found - sure) & calls)]
        misses += [
            f"fn {'/'.join(sorted(kinds[w]))} {label} {w[0]}:{w[1]}" for w in sorted(truth - found)
        ]
    index.close()
    print_tally(f"{name} ({answer['version']}, TypeScript)", tally)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--tune", action="store_true", help=f"the tuning projects {TUNE}")
    group.add_argument("--report", action="store_true", help=f"the reported ones {REPORT}")
    group.add_argument("--heldout", action="store_true", help=f"never tuned on {HELDOUT}")
    parser.add_argument("--projects", nargs="*", help="Python packages (installed) to score")
    parser.add_argument("--ts-projects", nargs="*", help="npm packages shipping src/ to score")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--per-kind", type=int, default=8)
    parser.add_argument("--misses", type=Path, help="write each wrong or missed site here")
    args = parser.parse_args(argv)
    missing = installed()
    if missing:
        print(missing)
        return 2
    names = args.projects or (TUNE if args.tune else HELDOUT if args.heldout else REPORT)
    site = HELDOUT_SITE if args.heldout else None
    misses: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        total = Tally()
        for name in names if args.projects != [] else ():
            root = copy_package(name, Path(tmp), site)
            if root is None:
                print(f"  {name}: not installed{f' in {site}' if site else ''}, skipped")
                continue
            started = time.perf_counter()
            targets = seed_targets(root, args.seed, args.per_kind)
            named, tally = score(root, targets, misses)
            print_tally(f"{name} ({named}; {time.perf_counter() - started:.0f} s)", tally)
            total.counts.update(tally.counts)
        if len(names) > 1:
            print_tally("all", total)
        ts_names = args.ts_projects
        if ts_names is None:
            ts_names = [] if args.projects else TS_TUNE if args.tune else TS_REPORT
            ts_names = TS_HELDOUT if args.heldout and not args.projects else ts_names
        for name in ts_names:
            typescript(name, Path(tmp), args, misses)
    if args.misses:
        args.misses.write_text("\n".join(misses) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
