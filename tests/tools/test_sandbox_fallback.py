"""Where bwrap is missing or cannot start: one warning line at start-up (en and zh), then
today's guard with its prompts; never a silent unsandboxed run. Runs with or without bwrap."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import provider_env, run_cli
from tests.helpers.sandbox_helpers import farm_without, make_home

WARNING = "warning: sandbox unavailable ("


@pytest.fixture
def home(tmp_path: Path) -> Path:
    return make_home(tmp_path)


def cli(llm, home: Path, workspace: Path, path: str, *extra: str):
    env = {**provider_env(llm, "openai"), "HOME": str(home), "PATH": path}
    env["UNICUM_HOME"] = str(home / ".unicum-agent")
    args = ["--dir", str(workspace), "-p", "go", "--provider", "openai", "--no-codemap"]
    return run_cli(*args, *extra, env=env)


def tool_results(llm) -> list[str]:
    return [m["content"] for m in llm.requests[-1].body["messages"] if m["role"] == "tool"]


def test_missing_bwrap_warns_once_and_the_guard_asks(llm, home, workspace, tmp_path):
    llm.call("terminal", {"command": "echo pwned >> ~/.bashrc"})
    llm.call("terminal", {"command": "git branch -D nothing"})
    llm.call("terminal", {"command": "echo inside > inside.txt"})
    llm.reply("done")
    done = cli(llm, home, workspace, str(farm_without("bwrap", tmp_path / "bin")))
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if "sandbox" in line]
    assert lines == [
        "unicum: warning: sandbox unavailable (bwrap not found on PATH (install the bubblewrap "
        "package)): commands run unsandboxed and the permission prompts guard them (see "
        "--sandbox)"
    ]
    first, second, third = tool_results(llm)
    assert first.startswith("refused: Run `echo pwned >> ~/.bashrc`?")
    assert "writes outside the workspace" in first and "git branch -D" in second
    assert (home / ".bashrc").read_text() == "export SENTINEL_BASHRC=1\n"
    assert third == "[exit 0]" and (workspace / "inside.txt").is_file()


def test_a_bwrap_that_cannot_start_warns_in_chinese_too(llm, home, workspace, tmp_path):
    fake = tmp_path / "fakebin"
    fake.mkdir()
    (fake / "bwrap").write_text(
        "#!/bin/sh\necho 'bwrap: No permissions to create namespace' >&2\nexit 1\n"
    )
    os.chmod(fake / "bwrap", 0o755)
    llm.reply("done")
    done = cli(llm, home, workspace, f"{fake}:{os.environ['PATH']}", "--lang", "zh")
    assert done.returncode == 0, done.stderr
    assert (
        "unicum: 警告：沙箱不可用（bwrap cannot start: bwrap: No permissions to create "
        "namespace）：命令将不经沙箱运行，由权限确认把关（见 --sandbox）"
    ) in done.stderr.splitlines()
    assert WARNING not in done.stderr


def test_sandbox_off_by_flag_says_nothing_and_guards(llm, home, workspace):
    llm.call("terminal", {"command": "rm -rf ~/notes"})
    llm.reply("done")
    done = cli(llm, home, workspace, os.environ["PATH"], "--sandbox", "off")
    assert done.returncode == 0, done.stderr
    assert "sandbox" not in done.stderr
    assert tool_results(llm)[0].startswith("refused: Run `rm -rf ~/notes`?")
    assert (home / "notes" / "keep.txt").is_file()


def test_a_bad_sandbox_setting_in_config_is_a_clear_error(llm, home, workspace):
    (home / ".unicum-agent" / "config.json").write_text(json.dumps({"sandbox": {"mode": "on"}}))
    done = cli(llm, home, workspace, os.environ["PATH"])
    assert done.returncode == 2
    assert "sandbox mode 'on': expected one of workspace-write, read-only, off" in done.stderr
