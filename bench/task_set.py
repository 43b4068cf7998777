"""The real-model task set: six tiny projects, each with a test that fails until the task is
done. The referee is pytest on the project's own tests, restored before scoring (an agent that
edits a test does not pass by it)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

ASK = "The test {test} fails. {what} Make `python -m pytest -q` pass; do not change the tests."


@dataclass(frozen=True)
class BenchTask:
    name: str
    what: str  # the task in one sentence
    files: dict[str, str]  # path -> text: the project as handed to the agent
    tests: tuple[str, ...] = field(default=())  # the referee's files, restored before scoring

    @property
    def prompt(self) -> str:
        return ASK.format(test=self.tests[0], what=self.what)

    def write(self, folder: Path) -> None:
        (folder / "pytest.ini").write_text(PYTEST_INI, encoding="utf-8")
        for rel, text in self.files.items():
            path = folder / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")

    def restore_tests(self, folder: Path) -> list[str]:
        """Put the tests back as written; the ones the agent had changed."""
        changed = []
        for rel in self.tests:
            path = folder / rel
            if not path.is_file() or path.read_text(encoding="utf-8") != self.files[rel]:
                changed.append(rel)
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(self.files[rel], encoding="utf-8")
        (folder / "pytest.ini").write_text(PYTEST_INI, encoding="utf-8")
        return changed


OFF_BY_ONE = BenchTask(
    "off-by-one",
    "squares(n) must return the squares of 1 to n, n included.",
    {
        "squares.py": 'def squares(n):\n    """The squares of 1..n."""\n'
        "    return [i * i for i in range(1, n)]\n",
        "tests/test_squares.py": "from squares import squares\n\n\n"
        "def test_squares_include_n():\n    assert squares(3) == [1, 4, 9]\n\n\n"
        "def test_zero():\n    assert squares(0) == []\n",
    },
    ("tests/test_squares.py",),
)

MISSING_FUNCTION = BenchTask(
    "missing-function",
    "Add the function word_count(text) to textutils.py: the number of words in text.",
    {
        "textutils.py": 'def shout(text):\n    return text.upper() + "!"\n',
        "tests/test_textutils.py": "from textutils import shout, word_count\n\n\n"
        'def test_shout():\n    assert shout("hi") == "HI!"\n\n\n'
        'def test_word_count():\n    assert word_count("one two  three") == 3\n'
        '    assert word_count("") == 0\n',
    },
    ("tests/test_textutils.py",),
)

FORMAT_STRING = BenchTask(
    "format-string",
    "format_price(amount) must show two decimals, like $3.50.",
    {
        "price.py": 'def format_price(amount):\n    return "$%d" % amount\n',
        "tests/test_price.py": "from price import format_price\n\n\n"
        'def test_two_decimals():\n    assert format_price(3.5) == "$3.50"\n'
        '    assert format_price(10) == "$10.00"\n',
    },
    ("tests/test_price.py",),
)

RENAME = BenchTask(
    "rename",
    "Rename the function area_of to rectangle_area in geometry.py and in report.py, which uses it.",
    {
        "geometry.py": "def area_of(width, height):\n    return width * height\n",
        "report.py": "from geometry import area_of\n\n\ndef describe(width, height):\n"
        '    return f"{width}x{height} = {area_of(width, height)}"\n',
        "tests/test_rename.py": "import geometry\nfrom report import describe\n\n\n"
        "def test_new_name():\n    assert geometry.rectangle_area(2, 3) == 6\n"
        '    assert not hasattr(geometry, "area_of")\n\n\n'
        'def test_report_uses_it():\n    assert describe(2, 3) == "2x3 = 6"\n',
    },
    ("tests/test_rename.py",),
)

EXCEPTION = BenchTask(
    "exception",
    "get_port(config) must raise ValueError when 'port' is missing or not between 1 and 65535.",
    {
        "settings.py": 'def get_port(config):\n    return int(config["port"])\n',
        "tests/test_settings.py": "import pytest\n\nfrom settings import get_port\n\n\n"
        'def test_port():\n    assert get_port({"port": "8080"}) == 8080\n\n\n'
        "def test_missing_port_is_a_value_error():\n    with pytest.raises(ValueError):\n"
        "        get_port({})\n\n\n"
        "def test_port_out_of_range():\n    with pytest.raises(ValueError):\n"
        '        get_port({"port": "70000"})\n',
    },
    ("tests/test_settings.py",),
)

ARGPARSE_FLAG = BenchTask(
    "argparse-flag",
    "Add a --shout flag to greet.py: with it, the greeting is in capitals.",
    {
        "greet.py": "import argparse\n\n\ndef main(argv=None):\n"
        "    parser = argparse.ArgumentParser()\n"
        '    parser.add_argument("--name", default="world")\n'
        "    args = parser.parse_args(argv)\n"
        '    return f"Hello, {args.name}!"\n\n\n'
        'if __name__ == "__main__":\n    print(main())\n',
        "tests/test_greet.py": "from greet import main\n\n\n"
        'def test_plain():\n    assert main(["--name", "Ann"]) == "Hello, Ann!"\n\n\n'
        'def test_shout():\n    assert main(["--name", "Ann", "--shout"]) == "HELLO, ANN!"\n',
    },
    ("tests/test_greet.py",),
)

TASKS = (OFF_BY_ONE, MISSING_FUNCTION, FORMAT_STRING, RENAME, EXCEPTION, ARGPARSE_FLAG)

# pytest finds the project's modules from its root (tests/ has no __init__.py)
PYTEST_INI = "[pytest]\npythonpath = .\n"
