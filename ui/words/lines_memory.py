"""The texts of automatic memory entries (core.memory's rules), as catalog templates: shown in
the person's language by `unicum memory list` and /memory; the stored entry stays English."""

from __future__ import annotations

from ui.words.catalog import N_

MEMORY_LINES: tuple[str, ...] = (
    # conventions (core.memory.rules: config files, pyproject.toml, test layouts)
    N_("built with {tool} ({source})"),
    N_("follow .editorconfig ({source})"),
    N_("format with {tool} ({source})"),
    N_("lint with {tool} ({source})"),
    N_("managed with {tool} ({source})"),
    N_("pre-commit hooks configured ({source})"),
    N_("sort imports with {tool} ({source})"),
    N_("tests run with {tool} ({source})"),
    N_("type-check with {tool} ({source})"),
    N_("Python tests in {folder}/ as test_*.py"),
    N_("Python tests as *_test.py beside the code"),
    N_("Go tests beside the code as *_test.go"),
    N_("JS/TS tests as *.test.* / *.spec.* files"),
    N_("JS/TS tests in __tests__/ folders"),
    N_("Java tests in src/test/java (Maven layout)"),
    N_("Rust integration tests in tests/"),
)
# the parts of a file's entry and the kinds of entries and commands
MEMORY_WORDS = (
    N_("user"),
    N_("feedback"),
    N_("project"),
    N_("reference"),
    N_("files"),
    N_("commands"),
    N_("conventions"),
    N_("notes"),
    N_("global"),
    N_("modified"),
    N_("editor"),
    N_("format"),
    N_("hooks"),
    N_("imports"),
    N_("lint"),
    N_("packaging"),
    N_("tests"),
    N_("types"),
)
