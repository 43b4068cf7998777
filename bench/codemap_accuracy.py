"""Precision and recall of `references` and `impact` against the ground truth of `truth_py`,
with `rg -w NAME` as the baseline. Scored per site (path, line); sites the truth cannot decide
(an untyped receiver) are counted apart and never scored, and so are the dependents reached
through them; type annotations are not calls."""

from __future__ import annotations

import random
import shutil
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from bench.truth_words import agrees_with_rg, rg_lines, word_lines
from core.codemap import CodeIndex, impact, references

MOST_CALLED = 15
SPREAD = 25
SEED = 19  # the big tree's draw (`targets(sample=…)`) the resolution rules were fixed on


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


def targets(truth, sample: int = 0, seed: int = 0) -> list[tuple[str, str]]:
    """Module-level functions, classes and methods with at least one call site: the most
    called, then an even spread of the rest (deterministic); with `sample`, that many drawn
    by `random.Random(seed)` from all of them instead (a big tree's most called are one
    family: the standard library's are fifteen `TestCase.assert*`)."""
    keys = [
        k
        for k, sites in truth.sites.items()
        if sites
        and not _short(k[1]).startswith("__")
        and truth.defs.get((k[0], k[1].rpartition(".")[0]), "class") == "class"
    ]
    keys.sort(key=lambda k: (-len(truth.sites[k]), k))
    if sample:
        return random.Random(seed).sample(sorted(keys), min(sample, len(keys)))
    rest = keys[MOST_CALLED:]
    step = max(1, len(rest) // SPREAD)
    return keys[:MOST_CALLED] + rest[::step][:SPREAD]


def _short(qualified: str) -> str:
    return qualified.rsplit(".", 1)[-1]


RG_IMPACT_NAMES = 200  # the baseline greps at most this many depth-1 names per target


class Baseline:
    """`rg -w` for the picked targets and the depth-1 names of their impact, each file read
    twice in all (bench/truth_words.py) instead of one `rg` per name."""

    def __init__(self, truth, root: Path, picked: list[tuple[str, str]]) -> None:
        self.truth = truth
        self.spans = {p: sorted(s, key=lambda x: x[1] - x[0]) for p, s in truth.spans.items()}
        self.memo: dict[tuple[str, int], str] = {}
        first = {_short(k[1]) for k in picked}
        self.lines = word_lines(root, first)
        self.second = {key: self._second_names(key) for key in picked}
        more = set().union(*self.second.values()) - first if self.second else set()
        self.lines.update(word_lines(root, more))
        self.check = agrees_with_rg(root, self.lines, sorted(first)[:5])

    def enclosing(self, path: str, line: int) -> str:
        slot = (path, line)
        if slot not in self.memo:
            spans = self.spans.get(path, ())
            self.memo[slot] = next((q for a, b, q in spans if a <= line <= b), "")
        return self.memo[slot]

    def users(self, name: str) -> set[tuple[str, str]]:
        return {(p, self.enclosing(p, n)) for p, n in self.lines.get(name, ())}

    def _second_names(self, key: tuple[str, str]) -> list[str]:
        first = self.users(_short(key[1]))
        return sorted({_short(a[1]) for a in first if a[1]})[:RG_IMPACT_NAMES]

    def impact(self, key: tuple[str, str]) -> set[tuple[str, str]]:
        first = self.users(_short(key[1]))
        second = {u for name in self.second[key] for u in self.users(name)}
        return (first | second) - {key}

    def undecided_impact(self, key: tuple[str, str]) -> set[tuple[str, str]]:
        """Dependents reached through a site the truth cannot decide (scored as neither)."""
        truth = self.truth

        def unsure(name: str) -> set[tuple[str, str]]:
            return {(p, self.enclosing(p, n)) for p, n in truth.undecided.get(name, ())}

        first = {(p, enc) for p, _, enc in truth.sites.get(key, ())}
        maybe = unsure(_short(key[1]))
        second = {u for a in first | maybe if a[1] for u in unsure(_short(a[1]))}
        second |= {(p, enc) for a in maybe if a[1] for p, _, enc in truth.sites.get(a, ())}
        return maybe | second


def truth_impact(truth, key: tuple[str, str]) -> set[tuple[str, str]]:
    first = {(p, enc) for p, _, enc in truth.sites.get(key, ())}
    second = {(p, enc) for a in first if a[1] for p, _, enc in truth.sites.get(a, ())}
    return (first | second) - {key}


def score_project(
    name: str,
    root: Path,
    truth,
    index: CodeIndex,
    sample: int = 0,
    misses: Path | None = None,
    seed: int = SEED,
) -> None:
    """P/R of refs and impact on the picked targets (`targets`, drawn with `seed` when
    `sample`); `misses` gets every wrong refs site, one line each, to read."""
    picked = targets(truth, sample, seed=seed)
    scores = defaultdict(Score)
    baseline = Baseline(truth, root, picked)
    wrong: list[str] = []
    for key in picked:
        short = _short(key[1])
        expected = {(p, n) for p, n, _ in truth.sites[key]}
        undecided = truth.undecided.get(short, set())
        _, sites = references(index.db, f"{key[0]}:{key[1]}")
        listed = [s for s in sites if s.kind != "type"]
        found = {(s.path, s.line) for s in listed}
        scores["refs"].add(found, expected, undecided)
        wrong += [f"fn {key[0]}:{key[1]} {p}:{n}" for p, n in sorted(expected - found)]
        wrong += [f"fp {key[0]}:{key[1]} {p}:{n}" for p, n in sorted(found - expected - undecided)]
        sure = {(s.path, s.line) for s in listed if s.confidence >= 0.5}
        scores["refs >= 0.5"].add(sure, expected, undecided)
        deps = impact(index.db, f"{key[0]}:{key[1]}", max_depth=2, limit=100_000).dependents
        depends = truth_impact(truth, key)
        unsure = baseline.undecided_impact(key)
        scores["impact"].add({(d.path, d.symbol) for d in deps}, depends, unsure)
        scores["rg refs"].add(baseline.lines.get(short, set()), expected, undecided)
        scores["rg impact"].add(baseline.impact(key), depends, unsure)
    total = sum(len(truth.sites[k]) for k in picked)
    how = f"{sample} drawn with seed {seed}" if sample else "most called and a spread"
    print(f"  {name}: {len(picked)} targets ({how}), {total} true sites")
    for label, score in scores.items():
        extra = f", {score.undecided} undecided listed" if label != "refs >= 0.5" else ""
        print(f"    {label:12} {score.text()}{extra}")
    print(f"    rg: {baseline.check}")
    if misses is not None:
        misses.write_text("\n".join(wrong) + "\n")
        print(f"    {len(wrong)} wrong refs sites written to {misses}")


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
        short = _short(key[1])
        expected = {(p, n) for p, n, _ in truth.sites[key]}
        _, sites = references(index.db, f"{key[0]}:{key[1]}")
        listed = [s for s in sites if s.kind != "type"]
        scores["refs"].add({(s.path, s.line) for s in listed}, expected, set())
        sure = {(s.path, s.line) for s in listed if s.confidence >= 0.5}
        scores["refs >= 0.5"].add(sure, expected, set())
        deps = impact(index.db, f"{key[0]}:{key[1]}", max_depth=2, limit=100_000).dependents
        scores["impact"].add({(d.path, d.symbol) for d in deps}, truth_impact(truth, key), set())
        if shutil.which("rg"):
            scores["rg refs"].add(rg_lines(root, short, "ts"), expected, set())
    total = sum(len(truth.sites[k]) for k in picked)
    print(f"  {name}: {len(picked)} targets, {total} true sites")
    for label, score in scores.items():
        print(f"    {label:12} {score.text()}")
