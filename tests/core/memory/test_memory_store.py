"""The memory store: layout, dedupe on add, concurrent writers, corrupt files, stale entries."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from core.agent.session.services import tool_services
from core.memory import MemoryEntry, MemoryStore
from core.memory.store import SCHEMA_VERSION
from tests.conftest import ROOT, run_cli
from tools.base import ToolContext
from tools.registry import Registry


def project_file(store: MemoryStore) -> Path:
    return store.file("project").path


def test_layout_global_and_per_project(isolated_home: Path, tmp_path: Path):
    one, two = tmp_path / "a" / "app", tmp_path / "b" / "app"
    one.mkdir(parents=True)
    two.mkdir(parents=True)
    s1, s2 = MemoryStore(isolated_home, one), MemoryStore(isolated_home, two)
    s1.add("project", "notes", "uses sqlite", tags=["db"], source="s1")
    s1.add("global", "user", "prefers short answers")
    assert project_file(s1) != project_file(s2)
    assert project_file(s1).parent.parent == isolated_home / "memory" / "projects"
    assert project_file(s1).parent.name.startswith("app-")
    assert s1.file("global").path == isolated_home / "memory" / "global.json"
    assert [e.content for _, e in s2.entries("project")] == []
    assert [e.content for _, e in s2.entries("global")] == ["prefers short answers"]
    data = json.loads(project_file(s1).read_text())
    assert data["version"] == SCHEMA_VERSION
    (raw,) = data["entries"]
    assert set(raw) == {"key", "type", "content", "id", "source", "created", "updated", "tags"}
    ((_, entry),) = MemoryStore(isolated_home, one).entries("project")
    assert (entry.type, entry.source, entry.tags, entry.hits) == ("notes", "s1", ["db"], 0)


def test_add_near_duplicate_updates_instead(isolated_home: Path, workspace: Path):
    store = MemoryStore(isolated_home, workspace)
    what, first = store.add(
        "project", "conventions", "Use pnpm, not npm, for installs", source="s1"
    )
    assert what == "added"
    what, second = store.add(
        "project", "conventions", "use pnpm not npm for installs.", source="s2"
    )
    assert what == "updated" and second.key == first.key and second.source == "s2"
    what, _ = store.add("project", "conventions", "Run the linter before committing")
    assert what == "added"
    fresh = MemoryStore(isolated_home, workspace)
    assert sorted(e.content for _, e in fresh.entries("project")) == [
        "Run the linter before committing",
        "use pnpm not npm for installs.",
    ]


def test_memory_tool_dedupes_updates_and_removes(isolated_home: Path, workspace: Path):
    registry = Registry.default()
    ctx = ToolContext(
        workspace=workspace,
        home=isolated_home,
        session_id="s9",
        services=tool_services(workspace, isolated_home),
    )

    def call(**args):
        out = registry.execute("memory", args, ctx)
        return out.content, out.is_error

    text, err = call(
        action="add", type="feedback", content="Answer in Chinese when asked in Chinese"
    )
    assert not err and text.startswith("added")
    text, err = call(
        action="add", type="feedback", content="answer in chinese when asked in chinese!"
    )
    assert not err and "updated" in text and "nearly duplicated" in text
    assert text.count("\n") == 0
    text, _ = call(action="list")
    assert text.count("\n") == 0 and "[feedback, project]" in text
    text, err = call(action="update", key="answer in chinese", content="Always answer in English")
    assert not err and "Always answer in English" in text
    text, _ = call(action="search", content="english")
    assert "Always answer in English" in text
    text, err = call(action="remove", key="Always answer in English")
    assert not err and text.startswith("removed")
    assert call(action="list") == ("no memory entries", False)
    text, err = call(action="remove", key="nothing like this")
    assert err and "no single memory entry" in text
    text, err = call(action="add", type="bogus", content="x")
    assert err


WRITER = """
import sys
sys.path.insert(0, {root!r})
from pathlib import Path
from core.memory import MemoryStore
store = MemoryStore(Path({home!r}), Path({ws!r}))
for i in range(200):
    store.add("project", "notes", f"writer {{sys.argv[1]}} entry {{i}}", key=f"{{sys.argv[1]}}-{{i}}")
"""


def test_two_processes_adding_200_each_lose_nothing(isolated_home: Path, workspace: Path):
    code = WRITER.format(root=str(ROOT), home=str(isolated_home), ws=str(workspace))
    procs = [subprocess.Popen([sys.executable, "-c", code, name]) for name in ("a", "b")]
    assert [p.wait(timeout=120) for p in procs] == [0, 0]
    keys = {e.key for _, e in MemoryStore(isolated_home, workspace).entries("project")}
    assert keys == {f"{n}-{i}" for n in ("a", "b") for i in range(200)}


def test_corrupt_file_is_kept_aside_with_a_warning(isolated_home: Path, workspace: Path):
    store = MemoryStore(isolated_home, workspace)
    path = project_file(store)
    path.parent.mkdir(parents=True)
    path.write_text('{"version": 1, "entries": [{"key": "a", "content": "half', encoding="utf-8")
    proc = run_cli("memory", "list", "--dir", str(workspace))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "no memory entries" in proc.stdout
    assert "warning" in proc.stderr and "unreadable" in proc.stderr and "kept as" in proc.stderr
    (aside,) = path.parent.glob("memory.json.corrupt-*")
    assert aside.read_text(encoding="utf-8").endswith('"half')  # kept byte for byte
    assert not path.exists()
    fresh = MemoryStore(isolated_home, workspace)
    fresh.add("project", "notes", "starts over cleanly")
    assert [e.content for _, e in MemoryStore(isolated_home, workspace).entries()] == [
        "starts over cleanly"
    ]
    assert fresh.take_warnings() == []


def test_newer_schema_and_wrong_shape_are_set_aside(isolated_home: Path, workspace: Path):
    store = MemoryStore(isolated_home, workspace)
    path = project_file(store)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"version": 99, "entries": []}))
    assert store.entries() == []
    (warning,) = store.take_warnings()
    assert "schema version 99" in warning


def test_odd_field_types_are_repaired_not_trusted(isolated_home: Path, workspace: Path):
    store = MemoryStore(isolated_home, workspace)
    path = project_file(store)
    path.parent.mkdir(parents=True)
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "entries": [
                    {
                        "key": "a",
                        "type": "files",
                        "content": "x",
                        "id": "1",
                        "updated": 1,
                        "hits": "2",
                        "tags": [1, "t"],
                        "meta": {"path": 5, "lines": 3},
                    },
                ],
            }
        )
    )
    ((_, entry),) = store.entries()
    assert (entry.hits, entry.tags, entry.meta) == (2, ["1", "t"], {"lines": 3})
    store.count_hits("project", ["a"])
    assert MemoryStore(isolated_home, workspace).entries()[0][1].hits == 3


def test_legacy_list_is_migrated(isolated_home: Path, workspace: Path):
    store = MemoryStore(isolated_home, workspace)
    path = project_file(store)
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps([{"key": "k", "type": "notes", "content": ["a", "b"]}]))
    ((_, entry),) = store.entries("project")
    assert entry.content == "a, b"


def test_entries_for_deleted_files_are_dropped_at_load(isolated_home: Path, workspace: Path):
    (workspace / "kept.py").write_text("x\n")
    store = MemoryStore(isolated_home, workspace)
    store.merge(
        "project",
        [
            MemoryEntry("file:kept.py", "files", "kept.py: Python", meta={"path": "kept.py"}),
            MemoryEntry("file:gone.py", "files", "gone.py: Python", meta={"path": "gone.py"}),
            MemoryEntry("command:test:pytest", "commands", "test: `pytest`"),
        ],
    )
    keys = {e.key for _, e in MemoryStore(isolated_home, workspace).entries()}
    assert keys == {"file:kept.py", "command:test:pytest"}


def test_memory_cli_show_and_forget(isolated_home: Path, workspace: Path):
    store = MemoryStore(isolated_home, workspace)
    _, entry = store.add("project", "notes", "the API lives in src/api")
    proc = run_cli("memory", "show", entry.id, "--dir", str(workspace))
    assert proc.returncode == 0 and "the API lives in src/api" in proc.stdout
    assert f"key        {entry.key}" in proc.stdout
    proc = run_cli("memory", "forget", "API lives", "--dir", str(workspace))
    assert proc.returncode == 0 and "forgot" in proc.stdout
    assert MemoryStore(isolated_home, workspace).entries() == []
    proc = run_cli("memory", "forget", "nope nope", "--dir", str(workspace))
    assert proc.returncode == 1 and "no single memory entry" in proc.stderr


@pytest.mark.parametrize(
    "text",
    [
        "",
        "null",
        "[1, 2]",
        '{"version": 1}',
        '{"version": "1", "entries": []}',
        '{"version": 1, "entries": ["just a string"]}',
        '{"version": 1, "entries": [{"type": "x"}]}',
        '{"version": 1, "entries": [{"key": "k", "content": "c", "meta": "oops"}]}',
        "\udcff".encode("utf-8", "surrogateescape").decode("latin-1"),
    ],
)
def test_malformed_files_never_crash_and_are_kept(isolated_home: Path, workspace: Path, text):
    store = MemoryStore(isolated_home, workspace)
    path = project_file(store)
    path.parent.mkdir(parents=True)
    path.write_bytes(text.encode("latin-1"))
    assert store.entries() == []
    (warning,) = store.take_warnings()
    assert "kept as memory.json.corrupt-" in warning
    assert len(list(path.parent.glob("memory.json.corrupt-*"))) == 1


def test_unknown_fields_survive_and_unchanged_lines_are_kept(isolated_home: Path, workspace: Path):
    store = MemoryStore(isolated_home, workspace)
    path = project_file(store)
    path.parent.mkdir(parents=True)
    rows = [
        {
            "key": f"k{i}",
            "type": "notes",
            "content": f"entry {i}",
            "id": f"id{i}",
            "created": 1.0,
            "updated": 2.0,
            "future_field": {"x": i},
        }
        for i in range(3)
    ]
    path.write_text(json.dumps({"version": 1, "entries": rows}))
    store.count_hits("project", ["k1"])
    first = path.read_text(encoding="utf-8").splitlines()
    assert len(first) == 5 and '"future_field":{"x":0}' in first[1]
    MemoryStore(isolated_home, workspace).update("project", "k2", content="entry two")
    second = path.read_text(encoding="utf-8").splitlines()
    assert second[1:3] == first[1:3]  # untouched entries keep their exact line
    assert '"content":"entry two"' in second[3] and '"future_field":{"x":2}' in second[3]
    hits = {e.key: e.hits for _, e in MemoryStore(isolated_home, workspace).entries()}
    assert hits == {"k0": 0, "k1": 1, "k2": 0}
