"""Every file Unicum itself reads at start-up is read through one capped reader: a 6 GB sparse
file, a link to /dev/zero or a FIFO in each such place (settings, config, .env, .mcp.json,
instruction files, skills, commands, agent definitions, memory and its side files, approvals,
prices, the code map's sources, .git/info/exclude) neither hangs nor crashes start-up, says so
in one line, and the rest still loads."""

from __future__ import annotations

import json
import os

import pytest

from my_agent.trust import trust_folder
from tests.conftest import provider_env, run_cli
from tests.helpers.capped_places import GOOD_AGENT, GOOD_SKILL, home_places, plant, project_places


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
