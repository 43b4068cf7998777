"""search_files and list_files: rg and the pure-Python fallback give the same answers."""

from __future__ import annotations

import shutil

import pytest

from tests.helpers.tool_helpers import make_ctx, run

HAVE_RG = shutil.which("rg") is not None


@pytest.fixture
def tree(workspace):
    files = {
        "src/app.py": "import os\n\ndef main():\n    print('Hello')\n    return os.getcwd()\n",
        "src/util.py": "def helper():\n    return 'hello world'\n# HELLO again\n",
        "src/日本.txt": "こんにちは hello\n",
        "docs/guide.md": "# Guide\nSay hello.\n",
        "build/out.txt": "hello from build\n",
        "node_modules/pkg/index.js": "hello()\n",
        ".venv/lib.py": "hello\n",
        ".github/ci.yml": "run: echo hello\n",
        "logs/debug.log": "hello log\n",
        "sub/.gitignore": "secret.txt\n",
        "sub/secret.txt": "hello secret\n",
        "sub/open.txt": "hello open\n",
        "hello_names.cfg": "nothing here\n",
        ".gitignore": "build/\n*.log\n",
        "docs/fold.txt": "\u212aelvin sign, long \u017f: \u017fmall\n",
    }
    for rel, text in files.items():
        path = workspace / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (workspace / "src/blob.bin").write_bytes(b"hello\0binary")
    (workspace / "docs/wide.txt").write_bytes("wide hello\n".encode("utf-16"))  # BOM + NULs
    (workspace / "src/huge.txt").write_text("hello\n" * 200_000)  # over 1 MB
    (workspace / "link.txt").symlink_to(workspace / "src/app.py")
    return workspace


def search_both(ctx, monkeypatch, **args):
    """The rg answer and the fallback answer (rg hidden from PATH) for the same call."""
    first = run(ctx, "search_files", **args)
    monkeypatch.setenv("PATH", "/nonexistent")
    second = run(ctx, "search_files", **args)
    monkeypatch.undo()
    return first, second


@pytest.mark.parametrize(
    "args",
    [
        {"pattern": "hello"},
        {"pattern": "hello", "ignore_case": False},
        {"pattern": r"def \w+\(", "file_glob": "*.py"},
        {"pattern": "hello", "path": "src", "max_results": 2},
        {"pattern": "hello", "path": "sub"},
        {"pattern": "hello", "path": "src/util.py"},
        {"pattern": "o", "file_glob": "src/**", "max_results": 3},
        {"pattern": "こんにちは|日本"},
        {"pattern": "kelvin"},  # matches the Kelvin sign when ignoring case, in rg and in Python
        {"pattern": "small", "ignore_case": False},
        {"pattern": "small"},
        {"pattern": "(?<=say )hello"},  # look-behind: rg cannot, so both run the fallback
        {"pattern": "^$"},
    ],
)
def test_rg_and_fallback_agree(tree, isolated_home, monkeypatch, args):
    ctx = make_ctx(tree, isolated_home)
    first, second = search_both(ctx, monkeypatch, **args)
    assert not first.is_error, first.content
    assert second.data["engine"] == "python"
    if HAVE_RG and "?<=" not in args["pattern"]:
        assert first.data["engine"] == "rg"
    assert first.content == second.content
    assert {k: v for k, v in first.data.items() if k != "engine"} == {
        k: v for k, v in second.data.items() if k != "engine"
    }


def test_ignore_case_follows_unicode_folding(tree, isolated_home, monkeypatch):
    ctx = make_ctx(tree, isolated_home)
    for out in search_both(ctx, monkeypatch, pattern="kelvin"):
        assert out.data["paths"] == ["docs/fold.txt"], out.content
    for out in search_both(ctx, monkeypatch, pattern="small"):
        assert out.data["paths"] == ["docs/fold.txt"], out.content


def test_grouped_output_and_ignore_rules(tree, isolated_home):
    out = run(make_ctx(tree, isolated_home), "search_files", pattern="hello")
    lines = out.content.splitlines()
    assert lines[0] == "file names matching: hello_names.cfg"
    assert "src/app.py" in lines and "  4: print('Hello')" in lines
    assert "src/util.py" in lines and "  3: # HELLO again" in lines
    assert ".github/ci.yml" in lines and "sub/open.txt" in lines and "src/日本.txt" in lines
    assert "docs/wide.txt" in lines and "  1: wide hello" in lines
    for skipped in (
        "build/out.txt",
        "node_modules",
        ".venv",
        "debug.log",
        "secret.txt",
        "blob.bin",
        "huge.txt",
        "link.txt",
    ):
        assert skipped not in out.content, skipped
    assert out.data["matches"] == 8 and out.data["files"] == 7
    assert lines[-1] == "[8 matching lines in 7 files]"


def test_cap_and_totals(tree, isolated_home):
    for n in range(30):
        (tree / f"many/f{n:02}.txt").parent.mkdir(exist_ok=True)
        (tree / f"many/f{n:02}.txt").write_text("needle\n" * 3)
    out = run(make_ctx(tree, isolated_home), "search_files", pattern="needle", max_results=5)
    assert out.content.count("  1: needle") == 2
    assert "  … 1 more in this file" in out.content
    assert "other files: many/f02.txt (3)" in out.content
    assert "[90 matching lines in 30 files; showing 5" in out.content


def test_bad_search_inputs(tree, isolated_home):
    ctx = make_ctx(tree, isolated_home)
    bad = run(ctx, "search_files", pattern="foo(")
    assert bad.is_error and "invalid regex" in bad.content
    assert "no such" in run(ctx, "search_files", pattern="x", path="missing").content
    assert run(ctx, "search_files", pattern="zzz_nothing").content == "no matches"
    assert run(ctx, "search_files", pattern="x", path="../").is_error


def test_list_tree_and_glob(tree, isolated_home):
    ctx = make_ctx(tree, isolated_home)
    out = run(ctx, "list_files")
    lines = out.content.splitlines()
    assert lines[0] == "./"
    assert "src/" in lines and "  app.py" in lines and ".gitignore" in lines
    for skipped in ("build/", "node_modules/", ".venv/", "debug.log", "secret.txt", "link.txt"):
        assert skipped not in lines, skipped
    shallow = run(ctx, "list_files", depth=1).content.splitlines()
    assert "src/ (5 entries)" in shallow and "  app.py" not in shallow
    py = run(ctx, "list_files", pattern="*.py")
    assert py.content.splitlines()[1:] == ["src/app.py", "src/util.py"]
    assert run(ctx, "list_files", path="src", pattern="*.md").content.endswith(
        "(nothing matches *.md)"
    )
    assert "not a folder" in run(ctx, "list_files", path="src/app.py").content


def test_list_is_capped_per_folder_and_in_total(workspace, isolated_home):
    for n in range(400):
        (workspace / f"f{n:03}.txt").write_text("")
    for d in range(12):
        for n in range(30):
            (workspace / f"dir{d:02}" / "deep" / f"g{n}.txt").parent.mkdir(
                parents=True, exist_ok=True
            )
            (workspace / f"dir{d:02}" / "deep" / f"g{n}.txt").write_text("")
    ctx = make_ctx(workspace, isolated_home)
    out = run(ctx, "list_files", depth=2)
    lines = out.content.splitlines()
    assert lines[1:3] == ["dir00/", "  deep/ (30 entries)"]
    assert "… 372 more" in lines  # 12 folders + 400 files in the root, 40 shown
    assert len(lines) < 310
    full = run(ctx, "list_files", depth=5)
    assert len(full.content.splitlines()) <= 302
    assert full.content.splitlines()[-1].startswith("[showing 300 of")


@pytest.mark.skipif(not HAVE_RG, reason="needs rg")
@pytest.mark.filterwarnings("ignore::FutureWarning")
def test_rg_dialect_lines_come_from_rg(workspace, isolated_home):
    (workspace / "n.txt").write_text("abc 123\nno digits\n")
    out = run(make_ctx(workspace, isolated_home), "search_files", pattern="[[:digit:]]{3}")
    assert out.data["engine"] == "rg"  # Python reads [[:digit:]] differently; rg's lines win
    assert out.content.splitlines()[:2] == ["n.txt", "  1: abc 123"]
