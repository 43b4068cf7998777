"""Key shapes come from detect-secrets' pattern plugins; their sources are kept in the Unicum
home so a later process compiles them without importing detect-secrets (and `requests`)."""

from __future__ import annotations

import json

from my_agent import secret_shapes
from my_agent.secret_shapes import CACHE_FILE, find_shapes, shape_patterns

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


def fresh() -> tuple:
    shape_patterns.cache_clear()
    return shape_patterns()


def test_the_cached_patterns_are_detect_secrets_own(isolated_home):
    built = fresh()
    cached = fresh()  # read back from the home this time
    assert (isolated_home.joinpath(*CACHE_FILE)).is_file()
    assert [(p.pattern, p.flags) for p in cached] == secret_shapes._from_detect_secrets()
    assert [(p.pattern, p.flags) for p in built] == [(p.pattern, p.flags) for p in cached]
    assert find_shapes(f"token={TOKEN} done") == [TOKEN]


def test_a_broken_or_stale_cache_is_rebuilt(isolated_home):
    fresh()
    path = isolated_home.joinpath(*CACHE_FILE)
    for content in ("{not json", json.dumps({"key": "0.0|x", "patterns": [["a", 0]]})):
        path.write_text(content)
        patterns = fresh()
        assert len(patterns) > 10 and find_shapes(TOKEN) == [TOKEN]
        assert json.loads(path.read_text())["key"] == secret_shapes._cache_key()
