"""The README is the first screen of the project: short, with set-up, the main job and the tests."""

from __future__ import annotations

from tests.conftest import ROOT

FIRST_SCREEN = 24  # lines of a terminal


def test_the_readme_is_short_and_its_first_screen_has_set_up_run_and_tests():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 200
    first = "\n".join(lines[:FIRST_SCREEN])
    assert "pip install -r requirements.txt" in first
    assert "unicum --dir" in first
    assert "python -m pytest -q" in first


def test_ci_runs_the_readmes_test_command_and_builds_the_manual():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "python -m pytest -q" in ci
    assert "mkdocs build --strict" in ci
