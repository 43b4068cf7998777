"""One project-file walker: search, listing and the code map see the same files."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from core.codemap import CodeIndex
from my_agent.walk import load_ignore, walk
from tests.helpers.tool_helpers import make_ctx, run

HAVE_RG = shutil.which("rg") is not None

TREE = {
    ".gitignore": "*.gen.py\n!keep.gen.py\nbuild/\n/top_only.py\ndocs/**/gen\n",
    ".git/info/exclude": "private/\n*.local.py\n",
    "app.py": "",
    "top_only.py": "",
    "keep.gen.py": "",
    "drop.gen.py": "",
    "mine.local.py": "",
    "build/out.py": "",
    "private/notes.py": "",
    "node_modules/pkg/index.py": "",
    "env/pyvenv.cfg": "",
    "env/lib/site.py": "",
    "docs/a/gen/made.py": "",
    "docs/a/hand.py": "",
    "src/.gitignore": "*.py\n!keep.py\nlocal/\n",
    "src/keep.py": "",
    "src/other.py": "",
    "src/local/x.py": "",
    "src/deep/top_only.py": "",
    "src/deep/.gitignore": "!other.py\n",
    "src/deep/other.py": "",
    "lib/build": "",  # a file: `build/` ignores folders only
}
PROJECT = {
    "app.py",
    "keep.gen.py",
    "docs/a/hand.py",
    "src/keep.py",
    "src/deep/other.py",
}


@pytest.fixture
def tree(workspace: Path) -> Path:
    for rel, text in TREE.items():
        path = workspace / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text or "x = 1\n")
    return workspace


def test_walk_follows_git_rules(tree):
    files = {e.rel for e in walk(tree)}
    assert files == PROJECT | {".gitignore", "src/.gitignore", "src/deep/.gitignore", "lib/build"}


def test_walk_from_a_subfolder_applies_the_rules_above_it(tree):
    assert {e.rel for e in walk(tree, "src")} == {
        "src/.gitignore",
        "src/keep.py",
        "src/deep/.gitignore",
        "src/deep/other.py",
    }


def test_search_listing_and_code_map_see_the_same_files(tree, isolated_home, monkeypatch, tmp_path):
    ctx = make_ctx(tree, isolated_home)
    listed = set(run(ctx, "list_files", pattern="**/*.py").data["files"])
    searched = set(run(ctx, "search_files", pattern="^", file_glob="*.py").data["paths"])
    monkeypatch.setenv("PATH", "/nonexistent")  # the pure-Python search
    fallback = run(ctx, "search_files", pattern="^", file_glob="*.py")
    monkeypatch.undo()
    index = CodeIndex(tree, tmp_path / "map.db")
    index.refresh()
    mapped = {path for (path,) in index.db.execute("SELECT path FROM files")}
    index.close()
    assert fallback.data["engine"] == "python"
    assert listed == mapped == set(fallback.data["paths"]) == PROJECT
    if HAVE_RG:
        assert searched == PROJECT


def test_an_ignore_file_gives_pathspec_verdicts(tmp_path):
    patterns = ["*.log", "!keep.log", "build/", "/cov", "docs/**/gen", "a/b", "foo/**", "\\#x"]
    patterns += ["[!a]z", "**/x/*.py", "?.c", "a/**/b", "dir/", "!dir/keep"]
    (tmp_path / "rules").write_text("\n".join(patterns) + "\n")
    rules = load_ignore(str(tmp_path / "rules"))
    assert rules is not None
    names = ["a", "b", "x", "foo", "docs", "gen", "build", "keep.log", "t.log", "az", "bz"]
    names += ["dir", "keep", "y.py", "c.c", "cov", "#x"]
    for depth in (1, 2, 3):
        for parts in itertools.product(names, repeat=depth):
            for path in ("/".join(parts), "/".join(parts) + "/"):
                assert rules.verdict(path) == rules.spec.check_file(path).include, path
