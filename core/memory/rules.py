"""The tables behind automatic memory: noise paths, languages, config files, test layouts."""

from __future__ import annotations

import re

NOISE_DIRS = frozenset(
    {
        "node_modules",
        ".git",
        "__pycache__",
        "venv",
        ".venv",
        "dist",
        "build",
        ".next",
        ".nuxt",
        "target",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".idea",
        ".vscode",
        "coverage",
        ".cache",
        ".gradle",
        "site-packages",
        ".eggs",
        ".svn",
        ".hg",
        ".terraform",
        "vendor",
        "bower_components",
        ".parcel-cache",
        ".turbo",
        ".unicum",
    }
)
TEMP_SUFFIXES = (
    ".tmp",
    ".temp",
    ".swp",
    ".swo",
    ".bak",
    ".backup",
    ".orig",
    ".rej",
    ".pyc",
    ".pyo",
    ".log",
    "~",
    ".lock",
    ".pid",
)
TEMP_PREFIXES = (".#", "#", "tmp", "temp")
MIN_LINES = 5  # smaller files are not worth remembering
SKIPPED_KINDS = frozenset({"search", "list", "web", "ask", "recall", "memory", "git"})
# How the generic extractor's facts (kind "other") map to kinds, by tool name. Tools that are in
# neither this table nor produce a known kind are "unknown tools" and leave no memory.
TOOL_KINDS = {
    "read_file": "read",
    "write_file": "write",
    "edit_file": "edit",
    "multi_edit": "edit",
    "apply_patch": "edit",
    "terminal": "run",
    "bash": "run",
    "shell": "run",
}
FILE_KINDS = frozenset({"read", "write", "edit"})
COMMAND_KINDS = frozenset({"test", "build", "run"})

# Which commands are project commands (test, build, lint, ...) is the command table's word:
# my_agent.shell.commands.

# Config files that reveal a convention: name → (key, text). Found in facts or the project root.
CONFIG_CONVENTIONS = {
    "ruff.toml": ("lint", "lint with ruff"),
    ".ruff.toml": ("lint", "lint with ruff"),
    ".flake8": ("lint", "lint with flake8"),
    ".pylintrc": ("lint", "lint with pylint"),
    "mypy.ini": ("types", "type-check with mypy"),
    ".mypy.ini": ("types", "type-check with mypy"),
    "pyrightconfig.json": ("types", "type-check with pyright"),
    ".eslintrc": ("lint", "lint with eslint"),
    ".eslintrc.js": ("lint", "lint with eslint"),
    ".eslintrc.json": ("lint", "lint with eslint"),
    ".eslintrc.cjs": ("lint", "lint with eslint"),
    ".eslintrc.yml": ("lint", "lint with eslint"),
    "eslint.config.js": ("lint", "lint with eslint"),
    "eslint.config.mjs": ("lint", "lint with eslint"),
    "biome.json": ("lint", "lint with biome"),
    ".prettierrc": ("format", "format with prettier"),
    ".prettierrc.json": ("format", "format with prettier"),
    "prettier.config.js": ("format", "format with prettier"),
    "rustfmt.toml": ("format", "format with rustfmt"),
    ".rustfmt.toml": ("format", "format with rustfmt"),
    ".golangci.yml": ("lint", "lint with golangci-lint"),
    ".golangci.yaml": ("lint", "lint with golangci-lint"),
    ".editorconfig": ("editor", "follow .editorconfig"),
    ".pre-commit-config.yaml": ("hooks", "pre-commit hooks configured"),
    "pytest.ini": ("tests", "tests run with pytest"),
    "tox.ini": ("tests", "tests run with tox"),
    "jest.config.js": ("tests", "tests run with jest"),
    "jest.config.ts": ("tests", "tests run with jest"),
    "vitest.config.ts": ("tests", "tests run with vitest"),
    "vitest.config.js": ("tests", "tests run with vitest"),
}
# [tool.X] sections of pyproject.toml → (key, text)
PYPROJECT_TOOLS = {
    "ruff": ("lint", "lint with ruff"),
    "black": ("format", "format with black"),
    "isort": ("imports", "sort imports with isort"),
    "mypy": ("types", "type-check with mypy"),
    "pyright": ("types", "type-check with pyright"),
    "pytest": ("tests", "tests run with pytest"),
    "poetry": ("packaging", "managed with poetry"),
    "uv": ("packaging", "managed with uv"),
    "pdm": ("packaging", "managed with pdm"),
    "hatch": ("packaging", "built with hatch"),
}
# Test layouts recognised from file paths: (regex on the path, key, text)
TEST_LAYOUTS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(rx), key, text)
    for rx, key, text in (
        (
            r"(?:^|/)tests?/(?:.*/)?test_[^/]+\.py$",
            "tests-layout",
            "Python tests in {dir}/ as test_*.py",
        ),
        (r"(?:^|/)[^/]+_test\.py$", "tests-layout", "Python tests as *_test.py beside the code"),
        (r"_test\.go$", "tests-layout", "Go tests beside the code as *_test.go"),
        (r"\.(?:test|spec)\.[jt]sx?$", "tests-layout", "JS/TS tests as *.test.* / *.spec.* files"),
        (r"(?:^|/)__tests__/", "tests-layout", "JS/TS tests in __tests__/ folders"),
        (r"(?:^|/)src/test/java/", "tests-layout", "Java tests in src/test/java (Maven layout)"),
        (r"(?:^|/)tests/[^/]+\.rs$", "tests-layout", "Rust integration tests in tests/"),
    )
]
