"""Precision and recall of `references` and `impact` against the ground truth of `truth_py`,
with `rg -w NAME` as the baseline. Scored per site (path, line); sites the truth cannot decide
(an untyped receiver) are counted apart and never scored, and so are the dependents reached
through them; type annotations are not calls."""

from __future__ import annotations

import shutil
import subprocess
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from core.codemap import CodeIndex, impact, references

MOST_CALLED = 15
SPREAD = 25


@dataclass
class Score:
    tp: int = 0
    fp: int = 0
    fn: int = 0
    undecided: int = 0

    def add(self, found: set, truth: set, undecided: set) -> None:
        self.tp += len(found & truth)
        self.fp += len(found - truth - undecided)
        self.fn += len(truth - found)
        self.undecided += len((found & undecided) - truth)

    def text(self) -> str:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        return f"P {p:.3f} R {r:.3f} (tp {self.tp}, fp {self.fp}, fn {self.fn})"


def targets(truth) -> list[tuple[str, str]]:
    """Module-level functions, classes and methods with at least one call site: the most
    called, then an even spread of the rest (deterministic)."""
    keys = [
        k
        for k, sites in truth.sites.items()
        if sites
        and not k[1].rsplit(".", 1)[-1].startswith("__")
        and truth.defs.get((k[0], k[1].rpartition(".")[0]), "class") == "class"
    ]
    keys.sort(key=lambda k: (-len(truth.sites[k]), k))
    rest = keys[MOST_CALLED:]
    step = max(1, len(rest) // SPREAD)
    return keys[:MOST_CALLED] + rest[::step][:SPREAD]


@lru_cache(maxsize=4096)
def rg_lines(root: Path, name: str, lang: str = "py") -> frozenset[tuple[str, int]]:
    out = subprocess.run(
        ["rg", "-n", "-w", "--no-heading", "-t", lang, "-F", name, "."],
        cwd=root,
        capture_output=True,
        check=False,
    ).stdout.decode("utf-8", "replace")
    found = set()
    for line in out.splitlines():
        path, number, _ = line.split(":", 2)
        found.add((path.removeprefix("./"), int(number)))
    return frozenset(found)


def _enclosing(truth, path: str, line: int) -> str:
    best = ""
    best_span = 1 << 30
    for start, end, qual in truth.spans.get(path, []):
        if start <= line <= end and end - start < best_span:
            best, best_span = qual, end - start
    return best


RG_IMPACT_NAMES = 200  # the baseline greps at most this many depth-1 names per target


def truth_impact(truth, key: tuple[str, str]) -> set[tuple[str, str]]:
    first = {(p, enc) for p, _, enc in truth.sites.get(key, ())}
    second = {(p, enc) for a in first if a[1] for p, _, enc in truth.sites.get(a, ())}
    return (first | second) - {key}


def undecided_impact(truth, key: tuple[str, str]) -> set[tuple[str, str]]:
    """Dependents reached through a site the truth cannot decide (scored as neither)."""

    def unsure(name: str) -> set[tuple[str, str]]:
        return {(p, _enclosing(truth, p, n)) for p, n in truth.undecided.get(name, ())}

    first = {(p, enc) for p, _, enc in truth.sites.get(key, ())}
    maybe = unsure(key[1].rsplit(".", 1)[-1])
    second = {u for a in first | maybe if a[1] for u in unsure(a[1].rsplit(".", 1)[-1])}
    second |= {(p, enc) for a in maybe if a[1] for p, _, enc in truth.sites.get(a, ())}
    return maybe | second


def rg_impact(truth, root: Path, key: tuple[str, str]) -> set[tuple[str, str]]:
    def users(name: str) -> set[tuple[str, str]]:
        return {(p, _enclosing(truth, p, n)) for p, n in rg_lines(root, name)}

    first = users(key[1].rsplit(".", 1)[-1])
    names = sorted({a[1].rsplit(".", 1)[-1] for a in first if a[1]})[:RG_IMPACT_NAMES]
    second = {u for name in names for u in users(name)}
    return (first | second) - {key}


def score_project(name: str, root: Path, truth, index: CodeIndex) -> None:
    picked = targets(truth)
    scores = defaultdict(Score)
    have_rg = shutil.which("rg") is not None
    for key in picked:
        short = key[1].rsplit(".", 1)[-1]
        expected = {(p, n) for p, n, _ in truth.sites[key]}
        undecided = truth.undecided.get(short, set())
        _, sites = references(index.db, f"{key[0]}:{key[1]}")
        listed = [s for s in sites if s.kind != "type"]
        scores["refs"].add({(s.path, s.line) for s in listed}, expected, undecided)
        sure = {(s.path, s.line) for s in listed if s.confidence >= 0.5}
        scores["refs >= 0.5"].add(sure, expected, undecided)
        deps = impact(index.db, f"{key[0]}:{key[1]}", max_depth=2, limit=100_000)
        depends, unsure = truth_impact(truth, key), undecided_impact(truth, key)
        scores["impact"].add({(d.path, d.symbol) for d in deps}, depends, unsure)
        if have_rg:
            scores["rg refs"].add(rg_lines(root, short), expected, undecided)
            scores["rg impact"].add(rg_impact(truth, root, key), depends, unsure)
    total = sum(len(truth.sites[k]) for k in picked)
    print(f"  {name}: {len(picked)} targets, {total} true sites")
    for label, score in scores.items():
        extra = f", {score.undecided} undecided listed" if label != "refs >= 0.5" else ""
        print(f"    {label:12} {score.text()}{extra}")
    if not have_rg:
        print("    rg: not installed (no baseline)")


class TsTruth:
    """The output of `truth_ts.js` shaped like `truth_py.Truth` for scoring."""

    def __init__(self, items: list[dict]) -> None:
        self.sites = {
            (i["path"], i["qualified"]): {tuple(s) for s in i["sites"]} for i in items if i["sites"]
        }
        self.defs = {(i["path"], i["qualified"]): "function" for i in items}
        self.undecided: dict = {}
        self.spans: dict = {}


def score_typescript(name: str, root: Path, truth: TsTruth, index: CodeIndex) -> None:
    picked = targets(truth)
    scores = defaultdict(Score)
    for key in picked:
        short = key[1].rsplit(".", 1)[-1]
        expected = {(p, n) for p, n, _ in truth.sites[key]}
        _, sites = references(index.db, f"{key[0]}:{key[1]}")
        listed = [s for s in sites if s.kind != "type"]
        scores["refs"].add({(s.path, s.line) for s in listed}, expected, set())
        sure = {(s.path, s.line) for s in listed if s.confidence >= 0.5}
        scores["refs >= 0.5"].add(sure, expected, set())
        deps = impact(index.db, f"{key[0]}:{key[1]}", max_depth=2, limit=100_000)
        scores["impact"].add({(d.path, d.symbol) for d in deps}, truth_impact(truth, key), set())
        if shutil.which("rg"):
            scores["rg refs"].add(rg_lines(root, short, "ts"), expected, set())
    total = sum(len(truth.sites[k]) for k in picked)
    print(f"  {name}: {len(picked)} targets, {total} true sites")
    for label, score in scores.items():
        print(f"    {label:12} {score.text()}")
