"""The FTS5 index behind memory ranking: stemming, CJK, kept in step with changed entries, and
the near-duplicate lookup of a keyless add among many entries."""

from __future__ import annotations

import time

from core.memory import MemoryEntry, MemoryStore, rank


def entry(key: str, content: str, age_days: float = 1.0) -> MemoryEntry:
    stamp = time.time() - age_days * 86400
    return MemoryEntry(key, "notes", content, created=stamp, updated=stamp)


def test_word_forms_match_through_the_stemmer():
    entries = [
        entry("a", "run migrate before deploying the api", age_days=30),
        entry("b", "the frontend build uses vite", age_days=0),
        entry("c", "cache keys include the language", age_days=0),
    ]
    assert [e.key for e in rank(entries, "database migrations failing", k=1)] == ["a"]
    assert [e.key for e in rank(entries, "deploy", k=1)] == ["a"]  # "deploying"


def test_cjk_characters_match_one_by_one():
    entries = [entry("a", "数据库 迁移 用 alembic", 30), entry("b", "前端 构建", 0)]
    assert [e.key for e in rank(entries, "修复数据库", k=1)] == ["a"]


def test_the_store_index_follows_changes_and_removals(isolated_home, workspace):
    store = MemoryStore(isolated_home, workspace)
    store.add("project", "notes", "payments use stripe webhooks", key="pay")
    store.add("project", "notes", "search runs on elasticsearch", key="search")
    assert [e.key for _, e in store.search("stripe", k=1)] == ["pay"]
    store.update("project", "pay", content="payments use adyen now")
    assert [e.key for _, e in store.search("adyen", k=1)] == ["pay"]
    store.remove("project", "search")
    found = [e.key for _, e in store.search("elasticsearch")]
    assert "search" not in found


def test_a_keyless_add_finds_its_near_duplicate_among_many(isolated_home, workspace):
    store = MemoryStore(isolated_home, workspace)
    rows = [
        MemoryEntry(f"note:{i}", "notes", f"module {i} talks to service {i * 7} over grpc")
        for i in range(5000)
    ]
    store.merge("project", rows)
    what, found = store.add("project", "notes", "Module 4321 talks to service 30247 over gRPC.")
    assert (what, found.key) == ("updated", "note:4321")
    what, _ = store.add("project", "notes", "module 4321 talks to billing over http")
    assert what == "added"
