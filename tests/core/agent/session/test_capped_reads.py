"""Every file Unicum itself reads at start-up is read through one capped reader: a 6 GB sparse
file, a link to /dev/zero or a FIFO in each such place (settings, config, .env, .mcp.json,
instruction files, skills, commands, agent definitions, memory and its side files, approvals,
prices, the code map's sources, .git/info/exclude) neither hangs nor crashes start-up, says so
in one line, and the rest still loads."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from my_agent.home import project_id
from my_agent.trust import trust_folder
from tests.conftest import provider_env, run_cli

SIX_GB = 6 * 1024**3
GOOD_SKILL = "---\nname: good-skill\ndescription: GOOD-SKILL-LOADED\n---\nbody\n"
GOOD_AGENT = "---\nname: good-agent\ndescription: GOOD-AGENT-LOADED\n---\nbody\n"


def home_places(home: Path, workspace: Path) -> list[Path]:
    memory = home / "memory" / "projects" / project_id(workspace)
    return [
        home / "settings.json",
        home / ".env",
        home / "AGENTS.md",
        home / "approvals.json",
        home / "mcp-approvals.json",
        home / "cache" / "secret-shapes.json",
        home / "memory" / "global.json",
        memory / "memory.json",
        memory / "consolidation.json",
        memory / "index.sqlite",
        home / "agents" / "bad.md",
        home / "commands" / "bad.md",
        home / "skills" / "bad" / "SKILL.md",
    ]


def project_places(workspace: Path) -> list[Path]:
    return [
        workspace / ".mcp.json",
        workspace / ".env",
        workspace / "AGENTS.md",
        workspace / ".unicum" / "settings.json",
        workspace / ".claude" / "settings.json",
        workspace / ".claude" / "settings.local.json",
        workspace / ".claude" / "commands" / "bad.md",
        workspace / ".claude" / "skills" / "bad" / "SKILL.md",
        workspace / ".claude" / "agents" / "bad.md",
        workspace / "src" / "huge.py",
        workspace / ".git" / "info" / "exclude",
        workspace / ".gitignore",
        workspace / "pyproject.toml",
        workspace / "package.json",
        workspace / "tsconfig.json",
    ]


def plant(path: Path, kind: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    if kind == "sparse":
        with path.open("wb") as fh:
            fh.write(b"{")
            fh.truncate(SIX_GB)
    elif kind == "zero":
        os.symlink("/dev/zero", path)
    else:
        os.mkfifo(path)


@pytest.mark.parametrize("kind", ["sparse", "zero", "fifo"])
def test_start_up_survives_a_huge_or_endless_file_in_every_place(
    llm, workspace, isolated_home, kind
):
    os.system(f"git init -q {workspace}")
    (workspace / "src").mkdir()
    (workspace / "src" / "good.py").write_text("def good_function():\n    return 1\n")
    (workspace / "CLAUDE.md").write_text("GOOD-INSTRUCTIONS-LOADED\n")
    skill = workspace / ".claude" / "skills" / "good" / "SKILL.md"
    skill.parent.mkdir(parents=True)
    skill.write_text(GOOD_SKILL)
    (workspace / ".claude" / "agents").mkdir(parents=True)
    (workspace / ".claude" / "agents" / "good.md").write_text(GOOD_AGENT)
    for path in home_places(isolated_home, workspace) + project_places(workspace):
        plant(path, kind)
    (isolated_home / "trusted.json").unlink()
    trust_folder(workspace, isolated_home)  # with the planted files as they are
    llm.reply("started")
    done = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "go",
        "--provider",
        "anthropic",
        env=provider_env(llm, "anthropic"),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    system = json.dumps(llm.requests[0].body["system"])
    for mark in ("GOOD-INSTRUCTIONS-LOADED", "GOOD-SKILL-LOADED", "GOOD-AGENT-LOADED"):
        assert mark in system, mark
    assert "not read" in done.stderr  # said, in one line per file


@pytest.mark.parametrize("name", ["config.json", "pricing.json"])
def test_a_huge_config_of_your_own_is_one_line_not_a_traceback(llm, workspace, isolated_home, name):
    """Your own settings stop the start, as a malformed one does, in one line."""
    plant(isolated_home / name, "sparse")
    done = run_cli("--dir", str(workspace), "-p", "go", env=provider_env(llm, "anthropic"))
    assert done.returncode == 2, done.stderr
    assert "over the 1 MB cap; not read" in done.stderr and "Traceback" not in done.stderr
