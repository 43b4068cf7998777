"""A TypeScript project's own package name and tsconfig paths lead to its sources: tests that
import the package by name (`"zod/v3"`) are references of its definitions (#30)."""

from __future__ import annotations

import json
from pathlib import Path

from core.codemap import CodeIndex, references

TSCONFIG = """{
  // comments and trailing commas, as tsc allows
  "compilerOptions": {
    "baseUrl": ".",
    "paths": { "@lib/*": ["src/lib/*"], }, /* "@/*" is no comment */
  },
}
"""


def _project(root: Path, name: str) -> None:
    (root / "src" / "lib").mkdir(parents=True)
    (root / "tests").mkdir()
    package = {
        "name": name,
        "exports": {
            ".": "./src/index.ts",
            "./util": {"types": "./dist/util.d.ts", "import": "./dist/util.js"},
        },
    }
    (root / "package.json").write_text(json.dumps(package))
    (root / "tsconfig.json").write_text(TSCONFIG)
    (root / "src" / "index.ts").write_text("export function area(r: number) {\n  return r;\n}\n")
    (root / "src" / "util.ts").write_text("export function clamp(x: number) {\n  return x;\n}\n")
    (root / "src" / "lib" / "help.ts").write_text("export function helper() {\n  return 1;\n}\n")
    (root / "tests" / "a.test.ts").write_text(
        'import { area } from "shapes";\nimport * as u from "shapes/util";\n'
        'import { helper } from "@lib/help";\n\narea(1);\nu.clamp(2);\nhelper();\n'
    )


def _sites(idx: CodeIndex, target: str) -> set[tuple[str, int, float]]:
    return {(s.path, s.line, s.confidence) for s in references(idx.db, target)[1]}


def test_self_imports_and_paths_resolve_to_sources(tmp_path: Path):
    root = tmp_path / "p"
    _project(root, "shapes")
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        assert ("tests/a.test.ts", 5, 0.95) in _sites(idx, "src/index.ts:area")
        assert ("tests/a.test.ts", 6, 0.95) in _sites(idx, "src/util.ts:clamp")  # dist → src
        assert ("tests/a.test.ts", 7, 0.95) in _sites(idx, "src/lib/help.ts:helper")
        package = json.loads((root / "package.json").read_text())
        (root / "package.json").write_text(json.dumps(package | {"name": "renamed"}))
        idx.refresh()  # the test file did not change: its imports are keyed again all the same
        assert not any(line == 5 for _, line, _ in _sites(idx, "src/index.ts:area"))
        assert ("tests/a.test.ts", 7, 0.95) in _sites(idx, "src/lib/help.ts:helper")
    finally:
        idx.close()


def test_an_external_package_stays_external(tmp_path: Path):
    root = tmp_path / "p"
    _project(root, "shapes")
    (root / "tests" / "b.test.ts").write_text('import { area } from "other";\n\narea(1);\n')
    idx = CodeIndex(root, tmp_path / "m.db")
    try:
        idx.refresh()
        assert not any(p == "tests/b.test.ts" for p, _, _ in _sites(idx, "area"))
    finally:
        idx.close()
