"""Helpers for the tests of Claude Code's configuration through the real CLI `-p`: settings
with hooks, small hook scripts, the run, the tool results a request carries, the fixtures
copied from Claude Code's documentation, and a git command for a test repository."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, provider_env, run_cli

FIXTURES = ROOT / "tests" / "fixtures" / "claude_code"


def settings(folder: Path, hooks: dict) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"hooks": hooks}), encoding="utf-8")


def script(tmp_path: Path, name: str, body: str) -> str:
    """A hook command: a small Python script run with this interpreter."""
    path = tmp_path / f"{name}.py"
    path.write_text(body, encoding="utf-8")
    return f"{sys.executable} {path}"


def run_p(llm, workspace: Path, prompt: str = "go", *extra: str):
    return run_cli(
        "--dir", str(workspace), "-p", prompt, "--provider", "openai", "--no-codemap", *extra,
        env=provider_env(llm, "openai"),
    )  # fmt: skip


def tool_results(body: dict) -> list[str]:
    """The tool results an OpenAI-wire request carries, in order."""
    return [m["content"] for m in body["messages"] if m["role"] == "tool"]


def use_settings(workspace: Path, name: str) -> None:
    """A Claude Code settings file from the fixtures, as the project's .claude/settings.json."""
    (workspace / ".claude").mkdir(exist_ok=True)
    shutil.copy(FIXTURES / name, workspace / ".claude" / "settings.json")


def git(workspace: Path, *args: str) -> None:
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t"}
    env |= {"GIT_COMMITTER_EMAIL": "t@x", "PATH": "/usr/bin:/bin", "HOME": str(workspace)}
    subprocess.run(["git", *args], cwd=workspace, check=True, capture_output=True, env=env)
