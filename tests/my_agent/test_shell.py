"""The one shell reader: tokenizer, words, wrappers, written paths and the command table."""

from __future__ import annotations

import pytest

from core.facts.shell_facts import command_kind
from core.memory.from_facts import classify_command
from my_agent.shell.commands import TABLE, Command, lookup, program_name
from my_agent.shell.tokenize import parse, strip_heredocs
from my_agent.shell.words import argvs, commands, strip_wrappers, subcommands, written_paths
from tools.permissions import check_command


def test_tokenizer_splits_chains_pipes_and_subshells_but_not_quotes():
    text = "cd a && (make test; echo 'x && y') | tee log || git status # rm -rf /"
    assert argvs(text) == [
        ["cd", "a"],
        ["make", "test"],
        ["echo", "x && y"],
        ["tee", "log"],
        ["git", "status"],
    ]


def test_substitutions_stay_inside_their_word():
    (pipe,) = parse('echo "$(rm -rf x)" `date`')
    assert [w.subs for w in pipe[0].words] == [[], ["rm -rf x"], ["date"]]


def test_heredoc_body_is_kept_on_its_command_and_is_not_a_command():
    text = "cat > f.py <<'EOF'\nimport os\nrm -rf /\nEOF\npython f.py"
    first, run = commands(text)
    assert first.heredoc == "import os\nrm -rf /" and run.argv == ["python", "f.py"]
    assert strip_heredocs(text) == "cat > f.py <<'EOF'\npython f.py"
    assert written_paths(text) == ["f.py"]


def test_redirections_are_not_arguments():
    (cmd,) = commands("cat src/a.py 2>/dev/null >> out.txt")
    assert cmd.argv == ["cat", "src/a.py"]
    assert written_paths("cat src/a.py 2>/dev/null >> out.txt") == ["out.txt"]
    assert written_paths("python -c 'print(1 > 2)'") == []  # quoted > is no redirection


@pytest.mark.parametrize(
    "command, paths",
    [
        ("sed -i 's/a/b/g' src/x.py", ["src/x.py"]),
        ("sed -i.bak -e s/a/b/ a.py b.py", ["a.py", "b.py"]),
        ("perl -i -pe 's/x/y/' f.pl", ["f.pl"]),
        ("sed -n 1,5p a.py", []),
        ("cp -r src dst && mv a b", ["dst", "a", "b"]),
        ("echo x | tee -a log1 log2 > /dev/null", ["log1", "log2"]),
        ("create notes.md", ["notes.md"]),
    ],
)
def test_written_paths(command, paths):
    assert written_paths(command) == paths


@pytest.mark.parametrize(
    "argv, wrappers, rest",
    [
        ("FOO=1 nohup timeout 5 rm -rf x", ["nohup", "timeout"], "rm -rf x"),
        ("timeout -k 5 30s pytest -q", ["timeout"], "pytest -q"),
        ("sudo -u bob rm -rf /", ["sudo"], "rm -rf /"),
        ("env -u HOME A=b make test", ["env"], "make test"),
        ("xargs -I {} rm -f {}", ["xargs"], "rm -f {}"),
        ("nice -n 10 ionice -c 3 make", ["nice", "ionice"], "make"),
        ("ls -la", [], "ls -la"),
    ],
)
def test_one_wrapper_list(argv, wrappers, rest):
    assert strip_wrappers(argv.split()) == (wrappers, rest.split())


def test_subcommands_skip_options_and_their_values():
    assert subcommands(["git", "-C", "src", "log", "-n", "3"], frozenset({"-C"})) == ["log", "3"]


@pytest.mark.parametrize(
    "command, kind, tool",
    [
        ("python3.11 -m pytest -q tests", "test", "pytest"),
        ("uv run python -m pytest", "test", "uv"),
        ("npx jest --watch", "test", "jest"),
        ("bundle exec rspec spec", "test", "rspec"),
        ("npm run test:unit", "test", "npm"),
        ("./gradlew check", "test", "gradle"),
        ("python manage.py test app", "test", "django"),
        ("python tests/runtests.py queries", "test", "runtests.py"),
        ("ruff check .", "lint", "ruff"),
        ("tsc --noEmit", "lint", "tsc"),
        ("tsc -p .", "build", "tsc"),
        ("mix format --check-formatted", "format", "mix"),
        ("pip install -e .", "setup", "pip"),
        ("python -m pip install -r requirements.txt", "setup", "pip"),
        ("pip show requests", "build", "pip"),
        ("cargo run --release", "run", "cargo"),
        ("docker compose up -d", "run", "docker"),
        ("node server.js", "run", "node"),
        ("python -c 'print(1)'", "other", "python"),
        ("sed -n 1,5p a.py", "read", "sed"),
        ("git -C sub status", "git", "git"),
    ],
)
def test_table_lookups(command, kind, tool):
    assert lookup(command.split()) == Command(kind, tool)


def test_unknown_programs_are_not_guessed():
    assert lookup(["frobnicate", "test"]) is None
    assert lookup(["node", "-e", "1"]) is None
    assert lookup([]) is None


def test_table_names_programs_as_lookup_spells_them():
    for row in TABLE:
        head = row.program.removeprefix("python -m ")
        assert program_name(head) == head, row


@pytest.mark.parametrize(
    "command, fact_kind, memory",
    [
        ("cd /repo && timeout 60 python -m pytest -x 2>&1 | tail", "test", ("test", "pytest")),
        ("pip install -q pytest", "build", ("build", "pip")),  # installing pytest runs no tests
        ("grep -rn pytest setup.cfg", "search", None),
        ("cat > t.py <<'EOF'\nimport pytest\nEOF\npython t.py", "write", ("run", "python")),
        ("python run.py > out.txt", "run", ("run", "python")),
        ("cp a.py b.py", "write", None),
        ("sudo make install", "build", ("build", "make")),
    ],
)
def test_facts_and_memory_read_the_same_table(command, fact_kind, memory):
    assert command_kind(command)[0] == fact_kind
    assert classify_command(command) == memory


def test_permissions_see_through_every_wrapper(tmp_path):
    assert any(r.startswith("rm -r/-f") for r in check_command("sudo -u me rm -rf /", tmp_path))
    assert any(r.startswith("sudo") for r in check_command("sudo -u me rm -rf /", tmp_path))
    assert check_command("timeout 5s rm -rf build", tmp_path) == []  # a build folder
    hit = check_command("cd /etc && sed -i s/a/b/ hosts", tmp_path)
    assert hit == ["sed hosts: writes outside the workspace"]
