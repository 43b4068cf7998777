"""A script's statements are not symbols: a hook script's `data = json.load(sys.stdin)` is
neither in its outline nor in the overview the system prompt and /init carry (#29 item 14)."""

from __future__ import annotations

from pathlib import Path

from core.codemap import CodeIndex, CodeMap, render_overview

HOOK = """#!/usr/bin/env python3
import json, sys
data = json.load(sys.stdin)
cmd = data["tool_input"]["command"]
if "rm -rf" in cmd:
    print("blocked", file=sys.stderr)
    sys.exit(2)
"""

RUNS_AT_IMPORT = """import sys
args = sys.argv[1:]
total = sum(int(a) for a in args)
print(total)
"""

LIBRARY = """LIMIT = 3
registry = {}
first = second = 0


def register(name):
    registry[name] = LIMIT
"""


def _write(root: Path) -> None:
    (root / "hooks").mkdir(parents=True)
    (root / "hooks" / "check.py").write_text(HOOK)
    (root / "tools").mkdir()
    (root / "tools" / "sum_args.py").write_text(RUNS_AT_IMPORT)
    (root / "lib.py").write_text(LIBRARY)


def test_a_scripts_statements_are_not_in_its_outline(tmp_path):
    _write(tmp_path / "p")
    cmap = CodeMap(tmp_path / "p", tmp_path / "home")
    try:
        hook = cmap.outline("hooks/check.py")
        assert "data =" not in hook and "cmd =" not in hook
        assert "0 symbols, 2 imports" in hook
        assert "args =" not in cmap.outline("tools/sum_args.py")
        library = cmap.outline("lib.py")  # a module's names stay its interface
        for line in ("LIMIT = 3", "2-2 registry", "def register(name)"):
            assert line in library
    finally:
        cmap.close()


def test_chained_names_are_module_names_not_members_of_each_other(tmp_path):
    _write(tmp_path / "p")
    index = CodeIndex(tmp_path / "p", tmp_path / "m.db")
    try:
        index.refresh()
        rows = index.db.execute(
            "SELECT s.name, s.scope FROM symbols s JOIN files f ON f.id = s.file_id "
            "WHERE f.path = 'lib.py' AND s.kind = 'variable'"
        ).fetchall()
        assert sorted(rows) == [("first", ""), ("registry", ""), ("second", "")]
    finally:
        index.close()


def test_the_overview_carries_no_script_statement(tmp_path):
    _write(tmp_path / "p")
    index = CodeIndex(tmp_path / "p", tmp_path / "m.db")
    try:
        index.refresh()
        text = render_overview(index.db, "check the hook", 1000)
        assert "LIMIT = 3" in text
        for statement in ("data = json.load", "cmd = data", "args = sys.argv", "total = sum"):
            assert statement not in text
    finally:
        index.close()
