"""The FTS5 index behind memory ranking: stemming, CJK, kept in step with changed entries, and
the near-duplicate lookup of a keyless add among many entries."""

from __future__ import annotations

import operator
import sqlite3
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


def many_notes(count: int = 600) -> list[MemoryEntry]:
    return [
        MemoryEntry(f"note:{i}", "notes", f"service {i} keeps its state in store{i * 13}")
        for i in range(count)
    ]


def test_the_index_is_cached_on_disk_between_sessions(isolated_home, workspace):
    first = MemoryStore(isolated_home, workspace)
    first.merge("project", many_notes())
    expected = [e.key for _, e in first.search("store5213 state", k=5)]
    assert expected[0] == "note:401"
    cache = first.file("project").path.with_name("index.sqlite")
    assert cache.is_file() and oct(cache.stat().st_mode & 0o777) == "0o600"
    second = MemoryStore(isolated_home, workspace)
    assert [e.key for _, e in second.search("store5213 state", k=5)] == expected
    assert second.index.db.total_changes == 0  # every row came from the cache, none rebuilt


def test_a_stale_cache_is_checked_row_by_row(isolated_home, workspace):
    MemoryStore(isolated_home, workspace).merge("project", many_notes())
    MemoryStore(isolated_home, workspace).search("warm", k=1)  # the cache is saved
    writer = MemoryStore(isolated_home, workspace)  # rules re-merging one, adding another
    writer.merge("project", [MemoryEntry("note:599", "notes", "service 599 moved to zebradb")])
    writer.add("project", "notes", "service 600 keeps its state in store7800", key="note:600")
    fresh = MemoryStore(isolated_home, workspace)  # the cache predates both changes
    entries = [e for _, e in fresh.entries()]

    def matches(query: str) -> list[str]:
        return [e.key for e, _ in fresh.index.scores(entries, query)]

    assert matches("zebradb") == ["note:599"]
    assert matches("store7787") == []  # the old text's row is there, claimed by no entry
    assert matches("store7800") == ["note:600"] and matches("store7774") == ["note:598"]
    # the 600 rows read from the cache, two added (note:599's new text, note:600): no rebuild
    assert fresh.index.db.execute("SELECT count(*) FROM docs").fetchone() == (602,)


def _gutted(cache) -> bytes:
    """The cache with its FTS5 term data deleted: it loads, and its first query fails."""
    db = sqlite3.connect(":memory:")
    db.deserialize(cache.read_bytes())
    with db:
        db.execute("DELETE FROM docs_data WHERE id > 10")
    return db.serialize()


def test_a_damaged_cache_is_rebuilt(isolated_home, workspace):
    store = MemoryStore(isolated_home, workspace)
    store.merge("project", many_notes())
    store.search("warm", k=1)
    cache = store.file("project").path.with_name("index.sqlite")
    for damage in (b"not a database at all" * 100, cache.read_bytes()[: 4096 * 2], _gutted(cache)):
        cache.write_bytes(damage)
        fresh = MemoryStore(isolated_home, workspace)
        assert [e.key for _, e in fresh.search("store5213", k=1)] == ["note:401"]
        assert cache.read_bytes() != damage  # a sound cache was saved in its place ...
        again = MemoryStore(isolated_home, workspace)
        assert [e.key for _, e in again.search("store5213", k=1)] == ["note:401"]
        assert again.index.db.total_changes == 0  # ... and the next session reads it whole


def test_text_that_leaves_memory_leaves_the_index_cache(isolated_home, workspace):
    store = MemoryStore(isolated_home, workspace)
    store.merge("project", many_notes())
    store.add("project", "notes", "the staging password is hunter2secret", key="pw")
    store.add("project", "notes", "the deploy key is in vault path kv/ops/deploy", key="key")
    store.add("project", "notes", "the ci token is tok_9f8e7d", key="ci")
    store.search("warm", k=1)
    cache = store.file("project").path.with_name("index.sqlite")
    assert b"hunter2secret" in cache.read_bytes()  # saved with every entry's text
    store.remove("project", "pw")
    store.update("project", "key", content="the deploy key moved to the hsm")
    assert not cache.exists()
    MemoryStore(isolated_home, workspace).search("warm", k=1)  # saved again, then ...
    store = MemoryStore(isolated_home, workspace)
    store.add("project", "notes", "the ci token was revoked", key="ci")  # ... an add updates it
    assert not cache.exists()
    store.merge("project", many_notes(1200))  # enough new rows that a save would be due ...
    store.search("warm", k=1)
    assert not cache.exists()  # ... but this index still holds the old text: never saved
    MemoryStore(isolated_home, workspace).search("warm", k=1)  # the next session saves one
    assert b"kv/ops/deploy" not in cache.read_bytes()
    assert b"hunter2secret" not in cache.read_bytes() and b"hsm" in cache.read_bytes()
    assert b"tok_9f8e7d" not in cache.read_bytes() and b"revoked" in cache.read_bytes()


def test_an_entry_changed_in_place_is_indexed_again(isolated_home, workspace):
    store = MemoryStore(isolated_home, workspace)
    store.merge("project", many_notes(300))
    entries = [e for _, e in store.entries()]

    def matches(query: str) -> list[str]:
        return [e.key for e, _ in store.index.scores(entries, query)]

    assert matches("store3887") == ["note:299"]  # the index now holds this very list
    store.update("project", "note:299", content="service 299 moved to zebradb")
    after = [e for _, e in store.entries()]
    assert len(after) == 300 and all(map(operator.is_, after, entries))  # one changed in place
    assert matches("zebradb") == ["note:299"] and matches("store3887") == []
    store.count_hits("project", ["note:298"])  # a change that leaves the text as it was
    assert matches("store3874") == ["note:298"]
