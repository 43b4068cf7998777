"""A cold build that runs past its first part ranks what it has, code before tests, so the
first task gets an overview; the rest is indexed in the same background thread."""

from __future__ import annotations

from pathlib import Path

from core.codemap import CodeMap
from core.codemap.index import CHUNK_FILES


def _project(root: Path, count: int) -> None:
    for n in range(count):
        pkg = root / "zz_pkg" / f"mod_{n:02d}.py"  # sorts after tests/: the order must be ours
        test = root / "tests" / f"test_mod_{n:02d}.py"
        for path in (pkg, test):
            path.parent.mkdir(parents=True, exist_ok=True)
        pkg.write_text(f"def helper_{n}(x):\n    return x + {n}\n")
        test.write_text(
            f"from zz_pkg.mod_{n:02d} import helper_{n}\n\n\ndef test_{n}():\n"
            f"    assert helper_{n}(1) == {n + 1}\n"
        )


def test_a_build_cut_at_its_first_part_keeps_an_overview_of_it(tmp_path: Path):
    count = CHUNK_FILES  # the code alone fills the first parse batch
    _project(tmp_path / "proj", count)
    cmap = CodeMap(tmp_path / "proj", tmp_path / "home")
    cmap.start_background(workers=1, first_seconds=0)  # the first part: one batch
    assert cmap.wait_first_part(60) and cmap.wait(60)
    assert not cmap.error
    assert cmap.early_overview.endswith(
        f"(ranked on the first {CHUNK_FILES} of {2 * count} files while the index was still "
        "being built; the code_map tool sees every file)"
    )
    # code is parsed before tests (a plain sorted walk would parse tests/ first)
    assert "zz_pkg/mod_" in cmap.early_overview and "tests/" not in cmap.early_overview
    assert cmap.stats()["files"] == 2 * count  # the rest followed in the same thread
    cmap.close()

    warm = CodeMap(tmp_path / "proj", tmp_path / "home")
    warm.start_background(workers=1, first_seconds=0)
    assert warm.wait(60) and warm.early_overview == ""  # nothing left to parse: no first part
    warm.close()
