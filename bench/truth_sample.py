"""Sites to check the Python ground truth by hand (it and the resolver have one author): 30
sites the truth counts, and 30 `ast` calls of a target's name it rejects (neither a site nor
undecided), each with its source line, on the same 200 stdlib targets as bench/codemap.py.

    python bench/truth_sample.py [TREE]     # default: this interpreter's stdlib (read only)
"""

from __future__ import annotations

import ast
import linecache
import random
import sys
import sysconfig
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.codemap import STDLIB_SAMPLE
from bench.codemap_accuracy import SEED, _short, targets
from bench.truth_walk import compute

COUNT = 30


def _calls(truth, names: set[str]) -> dict[str, set[tuple[str, int]]]:
    """Every call whose function is NAME or x.NAME, by `ast` alone (line of the name)."""
    found: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for module in truth.modules.values():
        for node in ast.walk(module.tree):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if name in names:
                    line = func.end_lineno if isinstance(func, ast.Attribute) else func.lineno
                    found[name].add((module.path, line))
    return found


def main() -> int:
    root = sys.argv[1] if len(sys.argv) > 1 else sysconfig.get_paths()["stdlib"]
    truth = compute(root)
    picked = targets(truth, STDLIB_SAMPLE, SEED)
    sites = sorted((k, p, n) for k in picked for p, n, _ in truth.sites[k])
    print(f"{min(COUNT, len(sites))} of {len(sites)} true sites (random.Random(30)):")
    for key, path, line in random.Random(30).sample(sites, min(COUNT, len(sites))):
        text = linecache.getline(f"{root}/{path}", line).strip()[:100]
        print(f"  {key[0]}:{key[1]} <- {path}:{line}: {text}")
    calls = _calls(truth, {_short(k[1]) for k in picked})
    rejected = set()
    for key in picked:
        short = _short(key[1])
        keep = {(p, n) for p, n, _ in truth.sites[key]} | truth.undecided.get(short, set())
        rejected |= {(key, p, n) for p, n in calls[short] if (p, n) not in keep}
    count = min(COUNT, len(rejected))
    print(f"{count} of {len(rejected)} calls of a target's name the truth rejects (Random(31)):")
    for key, path, line in random.Random(31).sample(sorted(rejected), count):
        text = linecache.getline(f"{root}/{path}", line).strip()[:100]
        print(f"  {key[0]}:{key[1]} X {path}:{line}: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
