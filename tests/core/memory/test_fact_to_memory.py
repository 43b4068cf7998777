"""Extraction rules and filters, one table row per rule, from Fact records built directly."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.memory import MemoryEntry, combine, facts_to_entries
from my_agent.facts import Fact


def read(path: str, lines: int = 40, **details) -> Fact:
    return Fact("read_file", "read", path, path=path, details={"lines": lines, **details})


def write(path: str, lines: int = 40, kind: str = "write") -> Fact:
    return Fact(
        "write_file" if kind == "write" else "edit_file",
        kind,
        path,
        path=path,
        details={"lines": lines},
    )


def run(command: str, ok: bool = True, kind: str = "run", **details) -> Fact:
    return Fact("terminal", kind, command, ok=ok, command=command, details=details)


# (row id, facts, expected {key: text the entry's content must contain}; no other keys allowed)
ROWS = [
    (
        "file read: language and size",
        [read("src/app.py", 120)],
        {"file:src/app.py": "src/app.py: Python, 120 lines"},
    ),
    (
        "file language from details wins",
        [read("src/x.inc", 30, language="PHP")],
        {"file:src/x.inc": "PHP, 30 lines"},
    ),
    (
        "file symbols listed",
        [read("src/auth.py", 50, symbols=["Auth", "login"])],
        {"file:src/auth.py": "defines Auth, login"},
    ),
    (
        "one symbol string stays whole",
        [read("src/db.py", 50, symbols="class Db, def connect")],
        {"file:src/db.py": "defines class Db, def connect"},
    ),
    (
        "write marks modified",
        [write("lib/util.ts", 12)],
        {"file:lib/util.ts": "TypeScript, 12 lines, modified"},
    ),
    (
        "edit marks modified",
        [write("main.go", 80, kind="edit")],
        {"file:main.go": "Go, 80 lines, modified"},
    ),
    (
        "a later read does not undo a write",
        [write("a.py", 10), read("a.py", 11)],
        {"file:a.py": "11 lines, modified"},
    ),
    (
        "the later write wins",
        [write("a.py", 10), write("a.py", 25)],
        {"file:a.py": "25 lines, modified"},
    ),
    ("failed file call skipped", [Fact("read_file", "read", "a.py", ok=False, path="a.py")], {}),
    ("noise: node_modules", [read("node_modules/react/index.js")], {}),
    ("noise: .git", [read(".git/config")], {}),
    ("noise: __pycache__", [read("pkg/__pycache__/m.cpython-311.pyc")], {}),
    ("noise: venv", [read("venv/lib/site.py")], {}),
    ("noise: .venv", [read(".venv/bin/activate")], {}),
    ("noise: dist", [read("dist/bundle.js")], {}),
    ("noise: build", [read("build/lib/x.py")], {}),
    ("noise: .next", [read("web/.next/server/page.js")], {}),
    ("tiny file skipped", [read("tiny.py", 2)], {}),
    ("temporary: swap file", [read("src/.app.py.swp")], {}),
    ("temporary: tmp_ file", [write("tmp_scratch.py")], {}),
    ("temporary: backup~", [write("notes.md~")], {}),
    ("temporary: tmp folder", [write("tmp/out.py")], {}),
    ("outside the project skipped", [read("/etc/hosts")], {}),
    ("unknown tool skipped", [Fact("frobnicate", "other", "src/app.py", path="src/app.py")], {}),
    ("search results skipped", [Fact("grep", "search", "def main", path="src/app.py")], {}),
    ("web results skipped", [Fact("web_fetch", "web", "https://x.org")], {}),
    ("clarify answers skipped", [Fact("ask_user", "ask", "which db?")], {}),
    ("listings skipped", [Fact("list_files", "list", "src", path="src")], {}),
    (
        "test command: pytest",
        [run("python -m pytest -q", kind="test", passed=12, exit_code=0)],
        {"command:test:pytest": "test: `python -m pytest -q` (pytest)"},
    ),
    ("test command: npm", [run("npm test")], {"command:test:npm": "`npm test` (npm)"}),
    ("test command: pnpm via run", [run("pnpm run test")], {"command:test:pnpm": "(pnpm)"}),
    ("test command: cargo", [run("cargo test")], {"command:test:cargo": "(cargo)"}),
    ("test command: go", [run("go test ./...")], {"command:test:go": "`go test ./...`"}),
    ("test command: make", [run("make test")], {"command:test:make": "(make)"}),
    ("test command: gradle wrapper", [run("./gradlew test")], {"command:test:gradle": "(gradle)"}),
    ("test command: mvn", [run("mvn test")], {"command:test:mvn": "(mvn)"}),
    ("test command: uv runner", [run("uv run pytest -x")], {"command:test:uv": "(uv)"}),
    (
        "test command: poetry runner",
        [run("poetry run pytest")],
        {"command:test:poetry": "(poetry)"},
    ),
    (
        "test command: venv interpreter",
        [run(".venv/bin/python -m pytest")],
        {"command:test:pytest": "`.venv/bin/python -m pytest` (pytest)"},
    ),
    ("build command: yarn", [run("yarn build")], {"command:build:yarn": "build: `yarn build`"}),
    ("build command: make", [run("make")], {"command:build:make": "build: `make` (make)"}),
    ("lint command: ruff", [run("ruff check .")], {"command:lint:ruff": "lint: `ruff check .`"}),
    ("lint command: npm script", [run("npm run lint")], {"command:lint:npm": "lint:"}),
    (
        "run command: python script",
        [run("python hello.py")],
        {"command:run:python": "run: `python hello.py` (python)"},
    ),
    ("run command: cargo run", [run("cargo run --release")], {"command:run:cargo": "run:"}),
    (
        "chained command keeps the project part",
        [run("cd web && npm test")],
        {"command:test:npm": "`cd web && npm test`"},
    ),
    (
        "generic fact from the skeleton extractor",
        [Fact("terminal", "other", "npm test")],
        {"command:test:npm": "`npm test` (npm)"},
    ),
    (
        "a test run only the extractor recognised",
        [run("./scripts/check.sh", kind="test")],
        {"command:test:check.sh": "test: `./scripts/check.sh` (check.sh)"},
    ),
    ("failed command skipped", [run("pytest", ok=False, exit_code=1)], {}),
    ("tests with failures skipped", [run("pytest", kind="test", failed=2)], {}),
    ("non-zero exit skipped", [run("npm test", exit_code=1)], {}),
    ("unknown command skipped", [run("ls -la")], {}),
    ("git command skipped", [run("git commit -m x", kind="git")], {}),
    ("command on scratch files skipped", [run("python /tmp/try.py")], {}),
    (
        "narrow test run keeps the general command",
        [run("pytest -q"), run("pytest tests/a.py::t")],
        {"command:test:pytest": "`pytest -q`"},
    ),
    (
        "later general test command wins",
        [run("pytest"), run("pytest -q -x")],
        {"command:test:pytest": "`pytest -q -x`"},
    ),
    (
        "convention: linter config seen",
        [read("ruff.toml", 10)],
        {"file:ruff.toml": "TOML", "convention:lint": "lint with ruff (ruff.toml)"},
    ),
    (
        "convention: formatter config seen",
        [read(".prettierrc", 8)],
        {"file:.prettierrc": ".prettierrc", "convention:format": "format with prettier"},
    ),
    (
        "convention: test layout",
        [read("tests/test_api.py", 30)],
        {"file:tests/test_api.py": "Python", "convention:tests-layout": "Python tests in tests/"},
    ),
    (
        "convention: go test layout",
        [write("pkg/db_test.go", 30)],
        {"file:pkg/db_test.go": "modified", "convention:tests-layout": "*_test.go"},
    ),
]


@pytest.mark.parametrize("facts, expected", [(r[1], r[2]) for r in ROWS], ids=[r[0] for r in ROWS])
def test_rule(facts, expected):
    entries = {e.key: e for e in facts_to_entries(facts, source="s1", now=1000.0)}
    assert set(entries) == set(expected)
    for key, text in expected.items():
        assert text in entries[key].content, entries[key].content
        assert "\n" not in entries[key].content
        assert entries[key].source == "s1" and entries[key].updated == 1000.0


def test_types_of_automatic_entries():
    facts = [read("src/app.py"), run("pytest"), read("pyproject.toml", 20)]
    types = {e.key: e.type for e in facts_to_entries(facts)}
    assert types == {
        "file:src/app.py": "files",
        "file:pyproject.toml": "files",
        "command:test:pytest": "commands",
    }


def test_disk_fills_in_size_and_drops_deleted_files(tmp_path: Path):
    (tmp_path / "big.py").write_text("x = 1\n" * 30)
    (tmp_path / "pyproject.toml").write_text("[tool.black]\nline-length = 90\n")
    facts = [
        Fact("read_file", "other", "big.py"),
        Fact("write_file", "other", "gone.py"),
        Fact("read_file", "read", str(tmp_path / "big.py"), path=str(tmp_path / "big.py")),
    ]
    entries = {e.key: e for e in facts_to_entries(facts, root=tmp_path)}
    assert set(entries) == {"file:big.py", "convention:format"}
    assert "30 lines" in entries["file:big.py"].content
    assert entries["convention:format"].content == "format with black (pyproject.toml)"


def test_combine_across_sessions_keeps_modified_and_general_command():
    old_file = facts_to_entries([write("a.py", 10)])[0]
    new_file = facts_to_entries([read("a.py", 12)])[0]
    merged = combine(old_file, new_file)
    assert merged.content == "a.py: Python, 12 lines, modified"
    old_cmd = facts_to_entries([run("pytest -q")], now=1.0)[0]
    narrow = facts_to_entries([run("pytest -k login")], now=2.0)[0]
    kept: MemoryEntry = combine(old_cmd, narrow)
    assert "`pytest -q`" in kept.content and kept.updated == 2.0


def test_hooks_write_at_task_end_and_session_end(isolated_home: Path, workspace: Path):
    from core.agent import TaskResult
    from core.agent.session.memory_hooks import MemoryHooks
    from core.memory import MemoryStore

    (workspace / "main.py").write_text("print(1)\n" * 9)
    hooks = MemoryHooks(MemoryStore(isolated_home, workspace), source="sess-1")
    hooks.on_fact(run("pytest -q"))
    hooks.on_task_end(TaskResult(text="done"))
    hooks.on_fact(write("main.py", 9))  # an interrupted last task: saved at session end
    assert {e.key for _, e in MemoryStore(isolated_home, workspace).entries()} == {
        "command:test:pytest"
    }
    hooks.close()
    saved = {e.key: e for _, e in MemoryStore(isolated_home, workspace).entries()}
    assert set(saved) == {"command:test:pytest", "file:main.py"}
    assert saved["file:main.py"].source == "sess-1" and hooks.warnings == []
