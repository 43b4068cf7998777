"""Reading terminal output: exit status, the error line, and pass/fail counts and failing test
names from the usual test runners."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_COUNT = re.compile(r"(\d+) (passed|failed|errors?|skipped|xfailed|xpassed|deselected)")
_PYTEST_SUMMARY = re.compile(r"^=+ .*\b(?:passed|failed|errors?|no tests ran)\b.* =+$", re.M)
_PYTEST_FAILED = re.compile(r"^(?:FAILED|ERROR) (\S+?)(?: - .*)?$", re.M)
_UNITTEST_RAN = re.compile(r"^Ran (\d+) tests? in", re.M)
_UNITTEST_RESULT = re.compile(r"^(OK|FAILED)\b(?: \((.*)\))?", re.M)
_UNITTEST_FAILED = re.compile(r"^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)", re.M)
_GO_FAILED = re.compile(r"^\s*--- FAIL: (\S+)", re.M)
_GO_PASSED = re.compile(r"^\s*--- PASS: ", re.M)
_CARGO_RESULT = re.compile(r"test result: \w+\. (\d+) passed; (\d+) failed")
_CARGO_FAILED = re.compile(r"^test (\S+) \.\.\. FAILED", re.M)
_JEST = re.compile(r"^Tests:\s+(.*\btotal)", re.M)
_JEST_FAILED = re.compile(r"^\s*[✕×] (.+?)(?: \(\d+ ?m?s\))?$", re.M)
_MIX = re.compile(r"(\d+) tests?, (\d+) failures?")
_MIX_FAILED = re.compile(r"^\s+\d+\) test (.+?) \(([\w.]+)\)", re.M)


@dataclass
class TestRun:
    passed: int = 0
    failed: int = 0
    errors: int = 0
    skipped: int = 0
    failing: list[str] = field(default_factory=list)
    found: bool = False

    def describe(self, limit: int = 6) -> str:
        parts = [
            f"{n} {word}"
            for n, word in (
                (self.failed, "failed"),
                (self.errors, "errors"),
                (self.passed, "passed"),
                (self.skipped, "skipped"),
            )
            if n
        ]
        text = ", ".join(parts) or "no tests ran"
        if self.failing:
            names = self.failing[:limit] + (
                [f"+{len(self.failing) - limit} more"] if len(self.failing) > limit else []
            )
            text += ": " + ", ".join(names)
        return text


def _short(node_id: str) -> str:
    """tests/test_auth.py::TestAuth::test_login -> test_auth.py::test_login (readable, unique)."""
    parts = node_id.split("::")
    if len(parts) == 1:
        return node_id
    return f"{parts[0].rsplit('/', 1)[-1]}::{parts[-1]}"


def _pytest(text: str, run: TestRun) -> None:
    summary = _PYTEST_SUMMARY.findall(text)[-1]
    for n, word in _COUNT.findall(summary):
        attr = {"error": "errors", "errors": "errors"}.get(word, word)
        if hasattr(run, attr):
            setattr(run, attr, getattr(run, attr) + int(n))
    run.failing = list(dict.fromkeys(_short(m) for m in _PYTEST_FAILED.findall(text)))


def _unittest(text: str, run: TestRun) -> None:
    total = int(_UNITTEST_RAN.findall(text)[-1])
    result = _UNITTEST_RESULT.findall(text)
    detail = result[-1][1] if result else ""
    for key, n in re.findall(r"(failures|errors|skipped)=(\d+)", detail):
        setattr(run, {"failures": "failed"}.get(key, key), int(n))
    run.passed = max(0, total - run.failed - run.errors - run.skipped)
    run.failing = list(
        dict.fromkeys(
            f"{cls.rsplit('.', 1)[-1]}.{name}" for name, cls in _UNITTEST_FAILED.findall(text)
        )
    )


def parse_test_output(text: str) -> TestRun:
    """Counts from the last summary any known runner printed; `found` False when none matched."""
    run = TestRun()
    if _PYTEST_SUMMARY.search(text):
        _pytest(text, run)
    elif _UNITTEST_RAN.search(text):
        _unittest(text, run)
    elif _CARGO_RESULT.search(text):
        for p, f in _CARGO_RESULT.findall(text):
            run.passed += int(p)
            run.failed += int(f)
        run.failing = _CARGO_FAILED.findall(text)
    elif _JEST.search(text):
        for n, word in _COUNT.findall(_JEST.findall(text)[-1]):
            setattr(run, word, int(n)) if word in ("passed", "failed", "skipped") else None
        run.failing = _JEST_FAILED.findall(text)
    elif _MIX.search(text):
        total, failures = map(int, _MIX.findall(text)[-1])
        run.failed, run.passed = failures, total - failures
        run.failing = [name for name, _ in _MIX_FAILED.findall(text)]
    elif _GO_FAILED.search(text) or _GO_PASSED.search(text):
        run.failing = _GO_FAILED.findall(text)
        run.failed, run.passed = len(run.failing), len(_GO_PASSED.findall(text))
    else:
        return run
    run.found = True
    return run


def exit_code(content: str, data: dict) -> int | None:
    """The exit status from structured data or from the usual text markers."""
    if isinstance(data.get("exit_code"), int):
        return data["exit_code"]
    for rx in (
        r"<returncode>(-?\d+)</returncode>",
        r"\[exit (-?\d+)\]\s*$",
        r"[Ee]xit code:?\s*(-?\d+)",
    ):
        m = re.search(rx, content)
        if m:
            return int(m.group(1))
    return None


def body_of(content: str) -> str:
    """Output text without the agent's wrapping markers."""
    text = re.sub(
        r"</?returncode>.*?</returncode>|</?output>|\[exit -?\d+\]\s*$", "", content, flags=re.S
    )
    return text.strip("\n")


_ERROR_LINE = re.compile(
    r"^\s*(?:[\w.]+(?:Error|Exception|Exit|Interrupt|Warning)\b|error\b|Error\b|ERROR\b|fatal\b|"
    r"FAIL(?:ED)?\b|E\s{2,}|.*: (?:command )?not found|.*No such file|.*cannot |.*Permission denied"
    r"|panic:|thread '.*' panicked|\*\* \()"
)


def error_line(text: str) -> str:
    """The first line that says what went wrong (a Python traceback's last line wins)."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for line in reversed(lines):
        if re.match(r"^[\w.]+(?:Error|Exception|Exit)\b", line):
            return line[:160]
    for line in lines:
        if _ERROR_LINE.match(line) and not line.startswith("Traceback"):
            return line[:160]
    return (lines[-1] if lines else "")[:160]
