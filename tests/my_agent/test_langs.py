"""One language table: facts, memory and the code map name a file's language alike."""

from __future__ import annotations

import pytest

from core.codemap.langs import EXTENSIONS, GRAMMARS
from core.facts import extract
from core.memory import facts_to_entries
from my_agent.facts import Fact
from my_agent.langs import LANGUAGES
from my_agent.messages import ToolCall
from tools.base import ToolOutput


@pytest.mark.parametrize(
    "path, language",
    # each known to only one of the old tables (facts, memory, code map)
    [("notes.rst", "reST"), ("App.swift", "Swift"), ("src/x.mts", "TypeScript")],
)
def test_facts_and_memory_name_the_same_language(path, language, tmp_path):
    call = ToolCall("c1", "read_file", {"path": path})
    read = extract(call, ToolOutput("a\n" * 40, data={"path": path, "lines": 40}))
    assert read.details["language"] == language
    bare = Fact("read_file", "read", path, path=path, details={"lines": 40})  # no language
    (entry,) = facts_to_entries([bare], tmp_path)
    assert entry.meta["language"] == language


def test_the_code_map_parses_exactly_the_languages_it_has_grammars_for():
    assert set(EXTENSIONS) == {ext for ext, lang in LANGUAGES.items() if lang in GRAMMARS}
    assert {".py", ".tsx", ".hxx", ".cts"} <= set(EXTENSIONS)
