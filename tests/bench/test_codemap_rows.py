"""bench/codemap_rows.py: two builds of the same tree give no differences; a change to one
file's code is reported as that file's rows, and the comparison exits 1."""

from __future__ import annotations

from pathlib import Path

from bench.codemap_rows import main


def _tree(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "core.py").write_text("class Pen:\n    def draw(self):\n        return 1\n")
    (root / "app.py").write_text(
        "from pkg.core import Pen\n\n\ndef run():\n    return Pen().draw()\n"
    )
    return root


def test_the_same_tree_built_twice_has_the_same_rows(tmp_path, capsys):
    tree = _tree(tmp_path / "tree")
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["dump", str(first), str(tree)]) == 0
    assert main(["dump", str(second), str(tree)]) == 0
    assert main(["compare", str(first), str(second)]) == 0
    assert "0 differences over 1 trees" in capsys.readouterr().out


def test_a_changed_file_is_listed_by_table(tmp_path, capsys):
    tree = _tree(tmp_path / "tree")
    before, after = tmp_path / "a.json", tmp_path / "b.json"
    main(["dump", str(before), str(tree)])
    (tree / "app.py").write_text(
        "from pkg.core import Pen\n\n\ndef run(pen: Pen):\n    pen.draw()\n"
    )
    main(["dump", str(after), str(tree)])
    capsys.readouterr()
    assert main(["compare", str(before), str(after)]) == 1
    out = capsys.readouterr().out
    assert f"{tree.resolve()} refs app.py" in out and f"{tree.resolve()} symbols app.py" in out
    assert "core.py" not in out
