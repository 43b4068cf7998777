"""Aider in the same run as the code map (optional): its tags and repo map on the same tree,
cold and warm, in CPU-seconds, and the recall of its `ref` tags on the same ground truth.
Aider runs in its own venv through `bench/aider_map.py`; without it, one line says so."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

from bench.codemap_accuracy import Score, _short

AIDER_PYTHON = Path("/tmp/aider-venv/bin/python")
INSTALL = "python -m venv /tmp/aider-venv && /tmp/aider-venv/bin/pip install aider-chat"


def _run(python: Path, root: Path, names: Path, home: Path) -> dict:
    script = Path(__file__).resolve().parent / "aider_map.py"
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env |= {"HOME": str(home), "PYTHONPATH": ""}
    out = subprocess.run(
        [str(python), str(script), str(root), str(names)],
        capture_output=True,
        text=True,
        check=False,
        env=env,
        cwd=root,
    )
    lines = out.stdout.strip().splitlines()
    if out.returncode != 0 or not lines:
        raise RuntimeError(out.stderr.strip()[-300:] or "no output")
    return json.loads(lines[-1])


def aider_figures(python: Path, tree: Path, tmp: Path, truth, picked: list) -> None:
    """Cold and warm runs on a fresh copy of `tree` (Aider writes its cache into the tree)."""
    if not python.exists():
        print(f"  Aider: not installed at {python} ({INSTALL}); skipped")
        return
    root = tmp / "aider-tree"
    shutil.copytree(tree, root, symlinks=True)
    names = tmp / "aider-names.txt"
    names.write_text("\n".join(sorted({_short(k[1]) for k in picked})) + "\n")
    home = tmp / "aider-home"
    home.mkdir(exist_ok=True)
    try:
        cold = _run(python, root, names, home)
        warm = _run(python, root, names, home)
    except (RuntimeError, ValueError, OSError) as exc:
        print(f"  Aider: the run failed: {exc}")
        return
    print(
        f"  Aider ({warm['files']} files, {warm['tags']:,} tags): tags {cold['tags_cpu']:.1f} "
        f"CPU-s cold, {warm['tags_cpu']:.2f} warm; repo map {cold['map_cpu']:.1f} CPU-s in "
        f"the cold run, {warm['map_cpu']:.1f} warm (1,024 tokens, 4 characters a token)"
    )
    score = Score()
    for key in picked:
        short = _short(key[1])
        found = {(p, n) for p, n in warm["refs"].get(short, ())}
        expected = {(p, n) for p, n, _ in truth.sites[key]}
        score.add(found, expected, truth.undecided.get(short, set()))
    print(f"    aider refs   {score.text()}, {score.undecided} undecided listed")
