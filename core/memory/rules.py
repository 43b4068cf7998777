"""The tables behind automatic memory: noise paths, languages, project commands, config files."""

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

_JS = r"(?P<tool>npm|pnpm|yarn|bun)\s+(?:run\s+)?"
_PY = r"python(?:3(?:\.\d+)?)?"
_PYRUN = r"(?:(?P<runner>uv|poetry|pdm|hatch|pipenv|rye)\s+run\s+)?(?:" + _PY + r"\s+-m\s+)?"
# (category, regex matched at the start of one command segment, tool when the regex names none)
COMMAND_RULES: list[tuple[str, re.Pattern[str], str]] = [
    (cat, re.compile(rx), tool)
    for cat, rx, tool in (
        ("test", _PYRUN + r"pytest\b", "pytest"),
        ("test", _PYRUN + r"unittest\b", "unittest"),
        ("test", r"(?P<tool>tox|nox)\b", ""),
        ("test", _JS + r"test\b", ""),
        ("test", r"(?:npx\s+)?(?P<tool>jest|vitest|mocha|playwright\s+test)\b", ""),
        ("test", r"(?P<tool>cargo)\s+(?:test|nextest)\b", ""),
        ("test", r"(?P<tool>go)\s+test\b", ""),
        ("test", r"(?P<tool>make)\s+(?:test|check)\b", ""),
        ("test", r"(?:\./)?(?P<tool>gradlew?)\s+(?:test|check)\b", ""),
        ("test", r"(?:\./)?(?P<tool>mvnw?)\s+(?:test|verify)\b", ""),
        ("test", r"(?P<tool>dotnet|mix)\s+test\b", ""),
        ("test", r"(?:bundle\s+exec\s+)?(?P<tool>rspec)\b", ""),
        ("lint", _PYRUN + r"(?P<tool>ruff)\s+check\b", ""),
        ("lint", _PYRUN + r"(?P<tool>flake8|pylint|mypy|pyright)\b", ""),
        ("lint", _JS + r"lint\b", ""),
        ("lint", r"(?:npx\s+)?(?P<tool>eslint|biome\s+check|tsc\s+--noEmit)\b", ""),
        ("lint", r"(?P<tool>cargo)\s+clippy\b", ""),
        ("lint", r"(?P<tool>golangci-lint|go\s+vet|pre-commit)\b", ""),
        ("lint", r"(?P<tool>make)\s+lint\b", ""),
        ("format", _PYRUN + r"(?P<tool>ruff\s+format|black|isort)\b", ""),
        ("format", r"(?:npx\s+)?(?P<tool>prettier)\b", ""),
        ("format", _JS + r"(?:format|fmt)\b", ""),
        ("format", r"(?P<tool>cargo\s+fmt|gofmt|go\s+fmt)\b", ""),
        ("build", _JS + r"build\b", ""),
        ("build", r"(?P<tool>cargo|go|dotnet)\s+build\b", ""),
        ("build", r"(?:\./)?(?P<tool>gradlew?)\s+(?:build|assemble)\b", ""),
        ("build", r"(?:\./)?(?P<tool>mvnw?)\s+(?:package|install|compile)\b", ""),
        ("build", r"(?P<tool>uv|poetry|pdm|hatch)\s+build\b", ""),
        ("build", _PY + r"\s+-m\s+build\b", "python"),
        ("build", r"(?P<tool>cmake)\s+--build\b", ""),
        ("build", r"(?P<tool>make)(?:\s+(?:all|build))?\s*$", ""),
        ("build", r"(?:npx\s+)?(?P<tool>tsc)\b", ""),
        ("setup", r"(?P<tool>npm|pnpm|yarn|bun)\s+(?:install|ci|i)\b", ""),
        ("setup", r"(?P<tool>uv)\s+(?:sync|pip\s+install)\b", ""),
        ("setup", r"(?P<tool>poetry|pdm|pipenv)\s+install\b", ""),
        ("setup", r"(?:" + _PY + r"\s+-m\s+)?(?P<tool>pip3?)\s+install\s+(?:-e\s+|-r\s+)", ""),
        ("run", _JS + r"(?:start|dev|serve|preview)\b", ""),
        ("run", r"(?P<tool>cargo|go)\s+run\b", ""),
        ("run", r"(?P<tool>make)\s+run\b", ""),
        ("run", r"(?P<runner>uv|poetry|pdm|hatch|pipenv)\s+run\s+(?!pytest)\S+", ""),
        ("run", r"(?P<tool>" + _PY + r")\s+(?:-m\s+(?!pip\b|venv\b|http\b)\w+|[\w./-]+\.py\b)", ""),
        ("run", r"(?P<tool>node|deno|ruby|php)\s+[\w./-]+\.\w+", ""),
        ("run", r"(?P<tool>flask|uvicorn|gunicorn|streamlit|django-admin)\b", ""),
        ("run", r"(?P<tool>docker)\s+compose\s+up\b", ""),
    )
]
CATEGORY_ORDER = ("test", "build", "lint", "format", "run", "setup")

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
