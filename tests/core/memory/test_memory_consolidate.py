"""Memory consolidation on a realistic memory file: near-duplicates merge into the newest,
unconfirmed entries decay, entries about deleted files go, types stay, MEMORY.md is written."""

from __future__ import annotations

import json
from pathlib import Path

from core.memory import MemoryStore, consolidate
from tests.conftest import provider_env, run_cli
from tests.helpers.memory_corpus import (
    DAY,
    DELETED,
    DUPLICATES,
    FILES,
    NOTES,
    STALE,
    STALE_USER,
    write_corpus,
)


def corpus_store(home: Path, workspace: Path, sessions: int = 30) -> tuple[MemoryStore, float]:
    store = MemoryStore(home, workspace)
    path = store.file("project").path
    facts = write_corpus(path, workspace)
    state = {"sessions": sessions, "last": facts["now"] - 100 * DAY}
    path.with_name("consolidation.json").write_text(json.dumps(state))
    return MemoryStore(home, workspace), facts["now"]


def stored(store: MemoryStore) -> dict[str, dict]:
    data = json.loads(store.file("project").path.read_text())
    return {row["key"]: row for row in data["entries"]}


def test_consolidation_merges_decays_and_drops_on_a_realistic_file(isolated_home, workspace):
    store, now = corpus_store(isolated_home, workspace)
    result = consolidate(store, session_end=True, now=now)
    rows = stored(MemoryStore(isolated_home, workspace))
    # near-duplicates: the newest of each group stays, with the hits of all of them
    assert result.merged == len(DUPLICATES)
    for _, _, _, original in DUPLICATES:
        assert original not in rows
    assert rows["note:user-answers-2"]["hits"] == 3
    cache = [r for k, r in rows.items() if k.startswith("note:n-cache")]
    assert len(cache) == 1 and cache[0]["hits"] == 2 + 1 + 1
    assert cache[0]["key"] == "note:n-cache-2"  # the newest of the three (0.1 days < 0.2)
    # stale: not confirmed for 20+ sessions; the user's own words never decay
    assert result.decayed == len(STALE)
    assert not {k for k, _, _ in STALE} & rows.keys()
    assert STALE_USER[0] in rows
    # files that no longer exist: their entries go, whatever their type
    assert result.missing == len(DELETED) + 1
    assert not any(k.endswith(tuple(DELETED)) for k in rows) and "note:ref-oldauth" not in rows
    assert {f"file:{p}" for p in FILES} <= rows.keys()
    # types kept; every other entry untouched but for its "seen" mark
    kept_notes = {k for k, _, _ in NOTES} - {d[3] for d in DUPLICATES}
    assert kept_notes <= rows.keys()
    assert {rows[k]["type"] for k in kept_notes} == {t for _, t, _ in NOTES}
    assert all(r["meta"]["seen"] == 31 for k, r in rows.items() if k in kept_notes)
    assert result.kept == len(rows) and result.sessions == 31
    state = json.loads(store.file("project").path.with_name("consolidation.json").read_text())
    assert state == {"sessions": 31, "last": now}


def test_memory_md_lists_entries_by_type(isolated_home, workspace):
    store, now = corpus_store(isolated_home, workspace)
    result = consolidate(store, now=now)
    assert result.index == store.file("project").path.parent / "MEMORY.md"
    text = result.index.read_text(encoding="utf-8")
    assert text.startswith(f"# Memory: {workspace.name}\n")
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert [h.split()[1] for h in headings] == [
        "user", "feedback", "project", "reference", "commands", "conventions", "notes", "files"
    ]  # fmt: skip
    assert "## user (3)" in headings
    assert "- Do not mock the database in tests, use the sqlite fixture (`note:fb-no-mocks-2`" in (
        text
    )
    assert "Celery" not in text and "oldauth" not in text
    assert result.sessions == 30  # not a session end: decay does not advance


def test_decay_waits_for_enough_sessions(isolated_home, workspace):
    store, now = corpus_store(isolated_home, workspace, sessions=5)
    assert consolidate(store, session_end=True, now=now).decayed == 0
    rows = stored(MemoryStore(isolated_home, workspace))
    assert {k for k, _, _ in STALE} <= rows.keys()


def test_cli_consolidate_and_session_end(llm, isolated_home, workspace):
    corpus_store(isolated_home, workspace)
    proc = run_cli("memory", "consolidate", "--dir", str(workspace))
    assert proc.returncode == 0, proc.stderr
    assert "merged 5 near-duplicates" in proc.stdout and "index: " in proc.stdout
    state_file = MemoryStore(isolated_home, workspace).file("project").path.parent
    assert json.loads((state_file / "consolidation.json").read_text())["sessions"] == 30
    llm.reply("done")
    env = provider_env(llm, "openai")
    proc = run_cli("--dir", str(workspace), "-p", "hi", "--provider", "openai", env=env)
    assert proc.returncode == 0, proc.stderr
    assert json.loads((state_file / "consolidation.json").read_text())["sessions"] == 31


def test_a_session_without_memory_writes_none(llm, isolated_home, workspace):
    llm.reply("done")
    env = provider_env(llm, "openai")
    proc = run_cli("--dir", str(workspace), "-p", "hi", "--provider", "openai", env=env)
    assert proc.returncode == 0, proc.stderr
    folder = MemoryStore(isolated_home, workspace).file("project").path.parent
    assert not (folder / "MEMORY.md").exists() and not (folder / "consolidation.json").exists()
