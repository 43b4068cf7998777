"""The code map on a small project in eight languages: definitions, references, updates."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from core.codemap import CodeIndex, CodeMap, query, walk_sources
from tests.conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "codemap"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return shutil.copytree(FIXTURE, tmp_path / "project")


@pytest.fixture
def index(project: Path, tmp_path: Path):
    idx = CodeIndex(project, tmp_path / "map.db")
    idx.refresh()
    yield idx
    idx.close()


def _defs(idx: CodeIndex, name: str) -> list[tuple[str, str, int, str]]:
    return [(d.path, d.kind, d.line, d.scope) for d in query.definitions(idx.db, name)]


def _sites(idx: CodeIndex, name: str, floor: float = 0.5) -> set[tuple[str, int, str]]:
    _, sites = query.references(idx.db, name)
    return {
        (s.path, s.line, s.caller) for s in sites if s.confidence >= floor and s.kind != "import"
    }


@pytest.mark.parametrize(
    "name, expected",
    [
        ("area", [("pkg/geometry.py", "function", 14, "")]),
        ("Shape.describe", [("pkg/geometry.py", "method", 10, "Shape")]),
        ("MAX_SIDES", [("pkg/geometry.py", "constant", 3, "")]),
        ("formatPrice", [("web/util.js", "function", 1, "")]),
        ("Store", [("web/store.ts", "class", 3, "")]),
        ("Item", [("web/store.ts", "interface", 1, "")]),
        ("PriceTag", [("web/view.tsx", "function", 4, "")]),
        ("HandleRequest", [("goapp/server.go", "function", 11, "")]),
        ("Server.Start", [("goapp/server.go", "method", 16, "Server")]),
        ("Config.new", [("rustapp/src/config.rs", "method", 8, "Config")]),
        ("parse_config", [("rustapp/src/config.rs", "function", 13, "")]),
        ("Billing.total", [("java/com/shop/Billing.java", "method", 6, "Billing")]),
        ("LIMIT", [("java/com/shop/Billing.java", "constant", 4, "Billing")]),
        ("checksum", [("csrc/util.c", "function", 5, "")]),
        ("SEED", [("csrc/util.c", "constant", 3, "")]),
        ("Engine.run", [("cpp/engine.cpp", "method", 6, "game.Engine")]),
        ("Engine", [("cpp/engine.hpp", "class", 2, "game")]),
        ("ruby/cart.rb:Cart.total", [("ruby/cart.rb", "method", 9, "Shop.Cart")]),
        ("tax.rb:RATE", [("ruby/tax.rb", "constant", 2, "Tax")]),
        ("Ledger.Balance", [("csharp/Ledger.cs", "method", 9, "Shop.Ledger")]),
        ("Limit", [("csharp/Ledger.cs", "constant", 7, "Shop.Ledger")]),
        ("Basket.due", [("php/Shop/Basket.php", "method", 8, "Basket")]),
        ("levy", [("php/Shop/Util/Tax.php", "method", 8, "Tax")]),
    ],
)
def test_definitions_in_each_language(index, name, expected):
    assert _defs(index, name) == expected


@pytest.mark.parametrize(
    "name, expected",
    [
        (
            "area",
            {
                ("app.py", 6, "report"),
                ("app.py", 12, "main"),
                ("pkg/geometry.py", 11, "Shape.describe"),
            },
        ),
        ("formatPrice", {("web/cart.js", 8, "Cart.total"), ("web/view.tsx", 4, "PriceTag")}),
        ("makeStore", {("web/view.tsx", 7, "StoreView")}),
        ("PriceTag", {("web/view.tsx", 8, "StoreView")}),
        ("HandleRequest", {("goapp/main.go", 6, "Run"), ("goapp/server.go", 17, "Server.Start")}),
        ("parse_config", {("rustapp/src/main.rs", 5, "main")}),
        ("Tax.java:compute", {("java/com/shop/Billing.java", 7, "Billing.total")}),
        ("tax.rb:compute", {("ruby/cart.rb", 10, "Shop.Cart.total")}),
        ("Apply", {("csharp/Ledger.cs", 11, "Shop.Ledger.Balance")}),
        ("Sum", {("csharp/Ledger.cs", 11, "Shop.Ledger.Balance")}),
        ("levy", {("php/Shop/Basket.php", 10, "Basket.due")}),
        ("Basket.count", {("php/Shop/Basket.php", 10, "Basket.due")}),
        ("checksum", {("csrc/main.c", 5, "main")}),
        ("tick", {("cpp/engine.cpp", 7, "game.Engine.run")}),
    ],
)
def test_references_with_enclosing_function(index, name, expected):
    assert _sites(index, name) == expected


def test_import_resolution_beats_name_matching(index, project):
    (project / "other.py").write_text("def area(x):\n    return 0\n")
    index.refresh()
    _, sites = query.references(index.db, "pkg/geometry.py:area")
    by_site = {(s.path, s.line): s for s in sites}
    assert by_site[("app.py", 6)].reason == "import"
    assert by_site[("app.py", 6)].confidence > 0.9
    _, other = query.references(index.db, "other.py:area")
    assert ("app.py", 6) not in {(s.path, s.line) for s in other}


def test_outline_lists_symbols_with_lines(project, tmp_path):
    cmap = CodeMap(project, tmp_path / "home")
    text = cmap.outline("pkg/geometry.py")
    cmap.close()
    lines = text.splitlines()
    assert lines[0] == "pkg/geometry.py: 5 symbols"
    assert "6-11 class Shape" in lines
    assert "  10-11 def describe(self) -> str" in lines
    assert "14-15 def area(shape: Shape) -> float" in lines


def test_edited_file_symbols_update(index, project):
    geometry = project / "pkg" / "geometry.py"
    text = geometry.read_text().replace("def area(", "def surface(")
    geometry.write_text("\n\n" + text)
    stats = index.refresh()
    assert stats.parsed == 1
    assert _defs(index, "area") == []
    assert _defs(index, "surface") == [("pkg/geometry.py", "function", 16, "")]
    assert _defs(index, "Shape") == [("pkg/geometry.py", "class", 8, "")]


def test_update_files_reindexes_one_file(index, project):
    util = project / "web" / "util.js"
    util.write_text(util.read_text() + "\nexport function roundUp(x) { return formatPrice(x); }\n")
    stats = index.update_files(["web/util.js"])
    assert stats.parsed == 1
    assert _defs(index, "roundUp") == [("web/util.js", "function", 7, "")]
    assert ("web/util.js", 7, "roundUp") in _sites(index, "formatPrice")


def _orphans(idx: CodeIndex) -> int:
    return sum(
        idx.db.execute(
            f"SELECT COUNT(*) FROM {table} WHERE file_id NOT IN (SELECT id FROM files)"
        ).fetchone()[0]
        for table in ("symbols", "refs")
    )


def test_renamed_file_leaves_no_ghosts(index, project):
    (project / "web" / "util.js").rename(project / "web" / "money.js")
    stats = index.refresh()
    assert stats.removed == 1
    assert _defs(index, "formatPrice") == [("web/money.js", "function", 1, "")]
    assert (
        index.db.execute("SELECT COUNT(*) FROM files WHERE path='web/util.js'").fetchone()[0] == 0
    )
    assert _orphans(index) == 0


def test_deleted_file_leaves_nothing(index, project):
    (project / "goapp" / "main.go").unlink()
    index.refresh()
    assert _sites(index, "HandleRequest") == {("goapp/server.go", 17, "Server.Start")}
    assert _defs(index, "Run") == []
    assert _orphans(index) == 0


def test_gitignore_and_vendored_folders_are_skipped(project, tmp_path):
    (project / "ignored").mkdir()
    (project / "ignored" / "secret.py").write_text("def hidden_func():\n    pass\n")
    (project / "build.gen.py").write_text("def generated():\n    pass\n")
    (project / "node_modules" / "lib").mkdir(parents=True)
    (project / "node_modules" / "lib" / "index.js").write_text("function vendored() {}\n")
    (project / "keep.gen.py").write_text("def kept():\n    pass\n")
    with (project / ".gitignore").open("a") as fh:
        fh.write("!keep.gen.py\n")
    idx = CodeIndex(project, tmp_path / "g.db")
    idx.refresh()
    assert _defs(idx, "hidden_func") == _defs(idx, "generated") == _defs(idx, "vendored") == []
    assert _defs(idx, "kept") == [("keep.gen.py", "function", 1, "")]
    idx.close()


def test_gbk_file_is_indexed_and_quoted(project, tmp_path):
    source = "# 计算总价\ndef 总价(x):\n    return x\n\ndef run():\n    return 总价(1)  # 调用\n"
    (project / "gbk.py").write_bytes(source.encode("gbk"))
    cmap = CodeMap(project, tmp_path / "home")
    defs = cmap.definition("gbk.py:run")
    cmap.close()
    assert "gbk.py:5-6 function run" in defs
    assert "总价(1)  # 调用" in defs


def test_walk_stops_at_the_file_cap(project):
    result = walk_sources(project, max_files=3)
    assert len(result.files) == 3
    assert result.truncated == "stopped at 3 files"


def test_build_cut_by_its_deadline_resumes_on_the_next_refresh(project, tmp_path):
    for n in range(120):
        (project / f"gen_{n}.py").write_text(f"def generated_{n}():\n    return {n}\n")
    idx = CodeIndex(project, tmp_path / "slow.db")
    first = idx.refresh(max_seconds=0)
    assert first.truncated and 0 < first.parsed < first.files
    second = idx.refresh()
    assert not second.truncated and first.parsed + second.parsed == first.files
    assert _defs(idx, "generated_119") == [("gen_119.py", "function", 1, "")]
    idx.close()


def test_a_damaged_database_is_rebuilt(project, tmp_path):
    db_path = tmp_path / "broken.db"
    db_path.write_bytes(b"this is not an SQLite database" * 100)
    idx = CodeIndex(project, db_path)
    idx.refresh()
    assert _defs(idx, "area") == [("pkg/geometry.py", "function", 14, "")]
    idx.close()


def _edges(idx: CodeIndex, name: str) -> set[tuple[str, str]]:
    return set(
        idx.db.execute(
            "SELECT a.path, b.path FROM edges e JOIN files a ON a.id = e.src "
            "JOIN files b ON b.id = e.dst WHERE e.name = ?",
            (name,),
        )
    )


def test_the_stored_graph_follows_edits_for_the_changed_names_only(index, project):
    assert _edges(index, "area") == {("app.py", "pkg/geometry.py")}
    others = index.db.execute("SELECT COUNT(*) FROM edges WHERE name != 'area'").fetchone()
    (project / "report.py").write_text("from pkg.geometry import area\n\nprint(area(None))\n")
    index.update_files(["report.py"])
    assert _edges(index, "area") == {
        ("app.py", "pkg/geometry.py"),
        ("report.py", "pkg/geometry.py"),
    }
    assert index.db.execute("SELECT COUNT(*) FROM edges WHERE name != 'area'").fetchone() == others
    (project / "report.py").unlink()
    index.refresh()
    assert _edges(index, "area") == {("app.py", "pkg/geometry.py")}


def test_ranks_are_stored_and_recomputed_only_after_a_change(index, project):
    from core.codemap import render_overview

    def dirty() -> str:
        return index.db.execute("SELECT value FROM meta WHERE key='ranks_dirty'").fetchone()[0]

    assert dirty() == "1"
    first = render_overview(index.db, "", 400)
    assert dirty() == "0" and index.db.execute("SELECT COUNT(*) FROM ranks").fetchone()[0] == 23
    index.refresh()
    assert dirty() == "0" and render_overview(index.db, "", 400) == first
    (project / "pkg" / "geometry.py").write_text("def area(shape):\n    return 0\n")
    index.refresh()
    assert dirty() == "1"
