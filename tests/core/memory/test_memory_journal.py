"""The journal beside a large memory file: changes appended and replayed, torn lines ignored,
concurrent and killed writers, folding back into the JSON file."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from core.memory import MemoryEntry, MemoryStore, consolidate
from core.memory.file import JOURNAL_FROM
from tests.conftest import ROOT, run_cli
from ui.words import Strings

SYLLABLES = "ka lo mi ra ne to su pi de fa gu zo be ch sh st tr pl en or".split()


def big_store(home: Path, workspace: Path, count: int = 1500) -> MemoryStore:
    """A project memory large enough that changes go to the journal (no two entries alike)."""
    rng = random.Random(5)
    words = ["".join(rng.choices(SYLLABLES, k=3)) for _ in range(3000)]
    store = MemoryStore(home, workspace)
    rows = [
        MemoryEntry(f"note:{i}", "notes", f"entry {i}: {' '.join(rng.choices(words, k=16))}")
        for i in range(count)
    ]
    store.merge("project", rows)
    assert store.file("project").path.stat().st_size > JOURNAL_FROM
    return store


def journal_of(store: MemoryStore) -> Path:
    return store.file("project").journal_path


def keys(home: Path, workspace: Path) -> set[str]:
    return {e.key for _, e in MemoryStore(home, workspace).entries("project")}


def test_changes_go_to_the_journal_and_replay(isolated_home: Path, workspace: Path):
    store = big_store(isolated_home, workspace)
    path = store.file("project").path
    before = path.read_bytes()
    store.add("project", "notes", "deploys need docker compose v2", key="deploy")
    store.update("project", "note:5", content="entry five, rewritten")
    assert store.remove("project", "note:6")
    store.count_hits("project", ["note:7", "deploy"])
    assert path.read_bytes() == before  # the 400 KB file was not rewritten
    lines = journal_of(store).read_bytes().split(b"\n")
    assert lines[-1] == b"" and len(lines) == 5  # one line per change
    assert json.loads(lines[2]) == {"put": [], "del": ["note:6"]}
    fresh = {e.key: e for _, e in MemoryStore(isolated_home, workspace).entries("project")}
    assert fresh["deploy"].content == "deploys need docker compose v2"
    assert fresh["note:5"].content == "entry five, rewritten"
    assert "note:6" not in fresh and len(fresh) == 1500
    assert (fresh["note:7"].hits, fresh["deploy"].hits) == (1, 1)
    data = json.loads(path.read_text(encoding="utf-8"))  # the JSON file stays readable
    assert data["version"] == 1 and len(data["entries"]) == 1500


def test_a_torn_last_line_is_ignored_and_cut_off(isolated_home: Path, workspace: Path):
    store = big_store(isolated_home, workspace)
    store.add("project", "notes", "first change", key="one")
    journal = journal_of(store)
    whole = journal.read_bytes()
    many = [MemoryEntry(f"batch:{i}", "notes", f"batch entry {i}") for i in range(3)]
    store.merge("project", many)  # one change, one line
    torn = journal.read_bytes()[: len(whole) + (journal.stat().st_size - len(whole)) // 2]
    journal.write_bytes(torn)  # what a writer killed in the middle of its write leaves
    found = keys(isolated_home, workspace)
    assert "one" in found and not found & {"batch:0", "batch:1", "batch:2"}  # none of it
    MemoryStore(isolated_home, workspace).add("project", "notes", "after the kill", key="two")
    lines = journal.read_bytes().split(b"\n")[:-1]
    assert [json.loads(line)["put"][0]["key"] for line in lines] == ["one", "two"]
    found = keys(isolated_home, workspace)
    assert {"one", "two"} <= found and not found & {"batch:0", "batch:1", "batch:2"}


def test_an_unreadable_line_is_kept_aside_and_the_rest_replayed(
    isolated_home: Path, workspace: Path
):
    store = big_store(isolated_home, workspace)
    store.add("project", "notes", "before the bad line", key="one")
    with journal_of(store).open("ab") as fh:
        fh.write(b'{"put": "not a list"}\n')
    writer = MemoryStore(isolated_home, workspace)
    writer.add("project", "notes", "after it", key="two")
    assert {"one", "two"} <= keys(isolated_home, workspace)
    (warning,) = writer.take_warnings()
    assert "1 unreadable line kept as memory.json.journal.corrupt-" in warning
    (aside,) = store.file("project").path.parent.glob("memory.json.journal.corrupt-*")
    journal = journal_of(store)
    assert Strings("zh").line(warning) == f"记忆日志 {journal}：1 行无法读取，已另存为 {aside.name}"
    assert aside.read_bytes() == b'{"put": "not a list"}\n'
    assert not journal_of(store).exists()  # that change folded the journal
    assert MemoryStore(isolated_home, workspace).take_warnings() == []  # kept aside once


WRITER = """
import sys
sys.path.insert(0, {root!r})
from pathlib import Path
from core.memory import MemoryStore
name = sys.argv[1]
store = MemoryStore(Path({home!r}), Path({ws!r}))
for i in range({count}):
    store.add("project", "notes", f"writer {{name}} wrote change {{i}}", key=f"{{name}}-{{i}}")
    store.count_hits("project", ["shared"])
"""


def test_concurrent_writer_processes_lose_nothing(isolated_home: Path, workspace: Path):
    store = big_store(isolated_home, workspace)
    store.add("project", "notes", "counted by every writer", key="shared")
    code = WRITER.format(root=str(ROOT), home=str(isolated_home), ws=str(workspace), count=50)
    names = ["a", "b", "c", "d"]
    procs = [subprocess.Popen([sys.executable, "-c", code, name]) for name in names]
    assert [p.wait(timeout=300) for p in procs] == [0, 0, 0, 0]
    fresh = {e.key: e for _, e in MemoryStore(isolated_home, workspace).entries("project")}
    assert {f"{n}-{i}" for n in names for i in range(50)} <= fresh.keys()
    assert len(fresh) == 1500 + 1 + 200 and fresh["shared"].hits == 200
    # 400 changes outgrew the journal: it was folded on the way, and the file holds the rest
    data = json.loads(store.file("project").path.read_text(encoding="utf-8"))
    assert len(data["entries"]) > 1501


KILLED = """
import sys
sys.path.insert(0, {root!r})
from pathlib import Path
from core.memory import MemoryEntry, MemoryStore
store = MemoryStore(Path({home!r}), Path({ws!r}))
i = 0
while True:
    batch = [MemoryEntry(f"kill:{{i}}:{{j}}", "notes", f"batch {{i}} part {{j}}") for j in range(5)]
    store.merge("project", batch)
    if i == 20:
        print("going", flush=True)
    i += 1
"""


def test_a_killed_writer_leaves_no_change_half_applied(isolated_home: Path, workspace: Path):
    big_store(isolated_home, workspace)
    code = KILLED.format(root=str(ROOT), home=str(isolated_home), ws=str(workspace))
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline() == b"going\n"
    time.sleep(0.3)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    found = keys(isolated_home, workspace)
    batches = {}
    for key in found - {f"note:{i}" for i in range(1500)}:
        _, i, j = key.split(":")
        batches.setdefault(int(i), set()).add(int(j))
    assert len(batches) > 20 and sorted(batches) == list(range(len(batches)))  # no gaps
    assert all(parts == set(range(5)) for parts in batches.values())  # each batch whole
    store = MemoryStore(isolated_home, workspace)  # the next writer goes on
    store.add("project", "notes", "after the kill", key="after")
    assert "after" in keys(isolated_home, workspace)


FOLD_KILLED = """
import os, pathlib, sys
sys.path.insert(0, {root!r})
from core.memory import MemoryStore
store = MemoryStore(pathlib.Path({home!r}), pathlib.Path({ws!r}))
unlink = pathlib.Path.unlink
def die(self, *args, **kwargs):  # killed after the file is rewritten, before the journal goes
    if self.name.endswith(".journal"):
        os._exit(9)
    return unlink(self, *args, **kwargs)
pathlib.Path.unlink = die
store.file("project").change(lambda cur: cur.pop("added"), fold=True)
"""


def test_a_fold_killed_before_the_journal_is_deleted_changes_nothing(
    isolated_home: Path, workspace: Path
):
    store = big_store(isolated_home, workspace)
    store.add("project", "notes", "in the journal only", key="added")
    store.update("project", "note:3", content="entry three, changed")
    code = FOLD_KILLED.format(root=str(ROOT), home=str(isolated_home), ws=str(workspace))
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 9
    assert journal_of(store).exists()  # the file was rewritten, the journal is still there
    data = json.loads(store.file("project").path.read_text(encoding="utf-8"))
    assert "added" not in {row["key"] for row in data["entries"]}
    fresh = {e.key: e for _, e in MemoryStore(isolated_home, workspace).entries("project")}
    assert "added" not in fresh  # replaying the journal does not bring it back
    assert fresh["note:3"].content == "entry three, changed" and len(fresh) == 1500


def test_consolidation_folds_the_journal_into_the_file(isolated_home: Path, workspace: Path):
    store = big_store(isolated_home, workspace)
    store.add("project", "notes", "remember the staging url", key="staging")
    store.remove("project", "note:9")
    assert journal_of(store).exists()
    consolidate(MemoryStore(isolated_home, workspace), session_end=True)
    assert not journal_of(store).exists()
    data = json.loads(store.file("project").path.read_text(encoding="utf-8"))
    stored = {row["key"] for row in data["entries"]}
    assert "staging" in stored and "note:9" not in stored and len(stored) == 1500


def test_the_journal_folds_when_it_outgrows_its_share(isolated_home: Path, workspace: Path):
    store = big_store(isolated_home, workspace)
    path, folded = store.file("project").path, False
    for i in range(200):
        store.add("project", "notes", f"change number {i} of many", key=f"many-{i}")
        folded = folded or not journal_of(store).exists()
    assert folded  # the file was rewritten with the journal's changes on the way
    journal = journal_of(store)
    assert not journal.exists() or journal.stat().st_size <= path.stat().st_size // 16
    assert {f"many-{i}" for i in range(200)} <= keys(isolated_home, workspace)


def test_the_memory_cli_sees_and_forgets_journaled_entries(isolated_home: Path, workspace: Path):
    store = big_store(isolated_home, workspace)
    _, entry = store.add("project", "notes", "the staging database is read-only", key="staging")
    assert journal_of(store).exists()
    proc = run_cli("memory", "show", entry.id, "--dir", str(workspace))
    assert proc.returncode == 0 and "the staging database is read-only" in proc.stdout
    proc = run_cli("memory", "forget", "staging", "--dir", str(workspace))
    assert proc.returncode == 0 and "forgot" in proc.stdout
    assert "staging" not in keys(isolated_home, workspace)
    proc = run_cli("memory", "consolidate", "--dir", str(workspace))
    assert proc.returncode == 0 and not journal_of(store).exists()
