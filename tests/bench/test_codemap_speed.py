"""bench/codemap_speed.py runs end to end on a small tree (Aider absent: the ratio is skipped,
saying why), printing each speed measure the README quotes."""

from __future__ import annotations

from pathlib import Path

from bench.codemap_speed import main


def _tree(root: Path) -> Path:
    (root / "json").mkdir(parents=True)
    (root / "json" / "decoder.py").write_text("def run():\n    return 1\n")
    (root / "app.py").write_text(
        "from json.decoder import run\n\n\ndef assertTrue(x):\n    return run()\n"
    )
    return root


def test_speed_bench_prints_every_measure(tmp_path, capsys):
    tree = _tree(tmp_path / "tree")
    assert main(["--tree", str(tree), "--aider", str(tmp_path / "no-aider" / "python")]) == 0
    out = capsys.readouterr().out
    assert "Aider: not installed" in out
    for measure in ("cold build, one process", "no-change refresh", "refs: median",
                    "one-file update", "impact assertTrue", "impact: max"):  # fmt: skip
        assert measure in out, measure
