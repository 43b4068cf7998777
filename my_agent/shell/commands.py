"""The command table: which program (and subcommand) does what, and the tool memory records.

One table for every reader: facts ask `lookup` for a command's kind, memory for its category and
tool. Kinds: test, lint, format, build, setup, run (project commands); read, search, edit, git
(looking at or changing the tree); shell (cd, export, echo: set-up, says nothing); other (a
known program that is no project command: `python -c`, `python -m venv`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from my_agent.shell.words import program, subcommands

PROJECT_KINDS = ("test", "build", "lint", "format", "run", "setup")  # memory's order of preference


@dataclass(frozen=True)
class Command:
    kind: str
    tool: str  # the name memory records: runner, package manager or test runner


@dataclass(frozen=True)
class Row:
    program: str  # as `program_name` spells it; "python -m X" for a module run with -m
    kind: str
    sub: str = ""  # the leading plain words required ("test", "compose up"); "" = any
    flags: tuple[str, ...] = ()  # any one of these words must appear
    tool: str = ""  # "" = the program
    script: bool = False  # the first plain argument must be a file (`node app.js`)


def _rows(kind: str, programs: str, **kw: str | tuple[str, ...] | bool) -> list[Row]:
    return [Row(p, kind, **kw) for p in programs.split()]  # type: ignore[arg-type]


JS = "npm pnpm yarn bun"
TABLE: tuple[Row, ...] = (
    # tests
    *_rows("test", "pytest tox nox jest vitest mocha rspec phpunit ctest runtests.py unittest"),
    *_rows("test", f"{JS} mix dotnet go", sub="test"),
    *_rows("test", "cargo", sub="test"),
    *_rows("test", "cargo", sub="nextest"),
    *_rows("test", "make gradle", sub="test"),
    *_rows("test", "make gradle", sub="check"),
    *_rows("test", "mvn", sub="test"),
    *_rows("test", "mvn", sub="verify"),
    Row("playwright", "test", sub="test"),
    Row("manage.py", "test", sub="test", tool="django"),
    Row("django", "test", sub="test"),
    # lint and format
    Row("ruff", "lint", sub="check"),
    Row("ruff", "format", sub="format"),
    *_rows("lint", "flake8 pylint mypy pyright eslint golangci-lint pre-commit"),
    *_rows("lint", f"{JS} make", sub="lint"),
    Row("biome", "lint", sub="check"),
    Row("tsc", "lint", flags=("--noEmit",)),
    Row("cargo", "lint", sub="clippy"),
    Row("go", "lint", sub="vet"),
    *_rows("format", "black isort prettier gofmt"),
    *_rows("format", f"{JS} mix cargo go", sub="fmt"),
    *_rows("format", f"{JS} mix", sub="format"),
    # build
    *_rows("build", f"{JS} cargo go dotnet uv poetry pdm hatch gradle", sub="build"),
    Row("gradle", "build", sub="assemble"),
    *_rows("build", "mvn", sub="package"),
    *_rows("build", "mvn", sub="install"),
    *_rows("build", "mvn mix", sub="compile"),
    Row("make", "build", sub="all"),
    Row("cmake", "build", flags=("--build",)),
    Row("python -m build", "build", tool="python"),
    # set-up
    *_rows("setup", f"{JS} poetry pdm pipenv", sub="install"),
    *_rows("setup", JS, sub="ci"),
    *_rows("setup", JS, sub="i"),
    *_rows("setup", JS, sub="add"),
    Row("uv", "setup", sub="sync"),
    Row("uv", "setup", sub="pip install"),
    Row("mix", "setup", sub="deps.get"),
    Row("pip", "setup", sub="install", flags=("-e", "-r", "--editable", "--requirement")),
    # run
    *_rows("run", JS, sub="start"),
    *_rows("run", JS, sub="dev"),
    *_rows("run", JS, sub="serve"),
    *_rows("run", JS, sub="preview"),
    *_rows("run", "cargo go make", sub="run"),
    *_rows("run", "node deno ruby php", script=True),
    *_rows("run", "flask uvicorn gunicorn streamlit django-admin"),
    Row("docker", "run", sub="compose up"),
    Row("python -m venv", "other"),
    Row("python -m http.server", "other"),
    # any other use of a build tool is a build step (`make install`, `pip list`, `go mod tidy`)
    *_rows("build", f"make pip {JS} cargo go mix mvn gradle poetry uv tsc"),
    *_rows("build", "gcc cc clang cmake"),
    # looking at and changing the tree
    *_rows("read", "cat head tail nl less more bat open goto scroll_up scroll_down view"),
    Row("sed", "read", flags=("-n",)),
    *_rows("search", "grep egrep fgrep rg ag ack find fd locate ls tree"),
    *_rows("search", "find_file search_dir search_file"),
    *_rows("edit", "edit str_replace apply_patch"),
    Row("git", "git"),
    *_rows("shell", "cd pushd popd export set source . echo true sleep clear"),
)
_BY_PROGRAM: dict[str, tuple[Row, ...]] = {
    name: tuple(r for r in TABLE if r.program == name) for name in {r.program for r in TABLE}
}
RUNNERS = frozenset({"uv", "poetry", "pdm", "hatch", "pipenv", "rye"})  # `uv run X`: tool uv
LAUNCHERS = {"npx": "", "bunx": "", "bundle": "exec"}  # `npx jest`: tool jest
_ALIASES = {"py.test": "pytest", "gradlew": "gradle", "mvnw": "mvn", "pip3": "pip"}
_PYTHON = re.compile(r"^python(?:\d+(?:\.\d+)*)?$")
_VALUED = {"make": frozenset({"-C", "-f", "-j"}), "git": frozenset({"-C", "-c"})}


def program_name(word: str) -> str:
    """The table's name for a program: `/usr/bin/python3.11` → python, `./gradlew` → gradle."""
    name = program(word)
    return "python" if _PYTHON.match(name) else _ALIASES.get(name, name)


def lookup(argv: list[str]) -> Command | None:
    """What `argv` (wrappers already stripped) does, or None for a program not in the table."""
    if not argv:
        return None
    name = program_name(argv[0])
    words = subcommands(argv, _VALUED.get(name, frozenset()))
    if name in RUNNERS and words[:1] == ["run"] and len(words) > 1:
        inner = lookup(argv[argv.index("run") + 1 :])
        return Command(inner.kind if inner and inner.kind in PROJECT_KINDS else "run", name)
    verb = LAUNCHERS.get(name)
    if verb is not None and (not verb or words[:1] == [verb]):
        rest = argv[argv.index(verb) + 1 :] if verb else argv[1:]
        while rest and rest[0].startswith("-"):
            rest = rest[1:]
        return lookup(rest)
    if name == "python":
        return _python(argv)
    if name in JS.split() and words:
        words = words[1:] if words[0] == "run" else words
        words = [_script(words[0]), *words[1:]] if words else words
    for row in _BY_PROGRAM.get(name, ()):
        if _matches(row, words, argv):
            return Command(row.kind, row.tool or name)
    return None


def _matches(row: Row, words: list[str], argv: list[str]) -> bool:
    sub = row.sub.split()
    if sub and words[: len(sub)] != sub:
        return False
    if row.flags and not any(f in argv[1:] for f in row.flags):
        return False
    return not row.script or bool(words and re.search(r"\.\w+$", words[0]))


def _script(word: str) -> str:
    """A package.json script by its family: `test:unit` → test, `lint-fix` → lint."""
    head = re.match(r"\w*", word)
    return head.group() if head and head.group() else word


def _python(argv: list[str]) -> Command:
    """`python -m X …` reads as `X …`; `python runtests.py` by the script's row; else run."""
    i = 1
    while i < len(argv) and argv[i].startswith("-") and argv[i] not in ("-m", "-c"):
        i += 1
    if i + 1 < len(argv) and argv[i] == "-m":
        module, rest = argv[i + 1], argv[i + 2 :]
        for name in (f"python -m {module}", module):
            rows = _BY_PROGRAM.get(name, ())
            args = [name, *rest]
            found = next((r for r in rows if _matches(r, subcommands(args), args)), None)
            if found:
                return Command(found.kind, found.tool or name)
        return Command("run", "python")
    if i < len(argv) and argv[i].endswith(".py"):
        found = lookup([program(argv[i]), *argv[i + 1 :]])
        return found if found and found.kind == "test" else Command("run", "python")
    return Command("other", "python")
