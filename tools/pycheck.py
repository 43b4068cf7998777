"""The syntax check after each edit of a Python file: the error and the lines around it, so a
small model's next attempt can be right. Only parses (`compile`), never runs or imports."""

from __future__ import annotations

import warnings

PYTHON_SUFFIXES = (".py", ".pyi")
AROUND = 3  # lines shown on each side of the error


def numbered(lines: list[str], lo: int, hi: int, mark: int = 0) -> str:
    """Lines lo..hi (1-based, inclusive) as `  12\tcode`; `mark` gets a `>`."""
    rows = []
    for n in range(max(1, lo), min(len(lines), hi) + 1):
        rows.append(f"{'>' if n == mark else ' '}{n:>5}\t{lines[n - 1]}")
    return "\n".join(rows)


def syntax_problem(name: str, text: str) -> str | None:
    """None when `name` is no Python file or `text` parses; else the error and its lines."""
    if not name.endswith(PYTHON_SUFFIXES):
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # an invalid escape is a warning, not an error
            compile(text, name, "exec", dont_inherit=True)
    except SyntaxError as exc:
        line = exc.lineno or 1
        lines = text.split("\n")
        where = numbered(lines, line - AROUND, line + AROUND, mark=line)
        return f"{type(exc).__name__}: {exc.msg} (line {line})\n{where}"
    except ValueError as exc:  # a NUL byte
        return f"{exc}"
    return None


def syntax_line(rel: str, text: str) -> str:
    """The check reported with a Python file's edit or write ("" for other files)."""
    if not rel.endswith(PYTHON_SUFFIXES):
        return ""
    problem = syntax_problem(rel, text)
    return f"\n[Python syntax check: {problem}]" if problem else "\n[Python syntax check: OK]"
