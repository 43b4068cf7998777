"""Memory across sessions through the real CLI and the scripted LLM server."""

from __future__ import annotations

import sys
from pathlib import Path

from my_agent.home import project_id
from tests.conftest import provider_env, run_cli

TEST_FILE = "def test_adds():\n    assert 1 + 1 == 2\n"
UTIL = "".join(f"def helper_{i}():\n    return {i}\n\n" for i in range(4))


def env_for(llm, tmp_path: Path) -> dict[str, str]:
    """The scripted provider, and a HOME without a ~/.claude/CLAUDE.md of the real user."""
    return {**provider_env(llm, "openai"), "HOME": str(tmp_path / "user")}


def system_of(request) -> str:
    return request.body["messages"][0]["content"]


def test_second_session_starts_knowing_what_the_first_learned(llm, workspace: Path, tmp_path: Path):
    (workspace / "tests").mkdir()
    (workspace / "tests" / "test_math.py").write_text(TEST_FILE)
    pytest_cmd = f"{sys.executable} -m pytest -q"
    llm.call("terminal", {"command": pytest_cmd})
    llm.call("write_file", {"path": "app/util.py", "content": UTIL})
    llm.call("read_file", {"path": "app/util.py"})
    llm.call("terminal", {"command": "ls -la"})
    llm.call("terminal", {"command": "false"})
    llm.reply("Tests pass; added app/util.py.")
    env = env_for(llm, tmp_path)
    first = run_cli(
        "--dir", str(workspace), "-p", "add util helpers and run the tests", "--yes", env=env
    )
    assert first.returncode == 0, first.stderr
    assert "## Memory" not in system_of(llm.requests[0])  # nothing learned yet

    llm.reply("The helpers are in app/util.py.")
    second = run_cli("--dir", str(workspace), "-p", "where are the util helpers?", env=env)
    assert second.returncode == 0, second.stderr
    system = system_of(llm.requests[6])
    memory = system[system.index("## Memory") :]
    assert f"- [commands] test: `{pytest_cmd}` (pytest)" in memory
    files_line = next(line for line in memory.splitlines() if line.startswith("- [files]"))
    assert files_line.startswith("- [files] app/util.py: Python, 12 lines")
    assert "helper_0" in files_line and files_line.endswith(", modified")
    assert "- [conventions] Python tests in tests/ as test_*.py" in memory
    assert "ls -la" not in memory and "false" not in memory
    assert memory.rstrip().endswith(
        "memory tool (action=update or remove; key = the entry's text or key)."
    )

    listed = run_cli("memory", "list", "--dir", str(workspace), env=env)
    assert listed.returncode == 0 and "app/util.py" in listed.stdout
    assert "instruction files: none" in listed.stdout


def test_prompt_order_instructions_skills_memory_and_skill_loading(
    llm, workspace: Path, tmp_path: Path
):
    (workspace / "AGENTS.md").write_text("Always run ruff before finishing.\n")
    folder = workspace / ".unicum" / "skills" / "release"
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        "---\nname: release\ndescription: Cut a release\n---\n"
        "Bump the version in pyproject.toml, then tag.\n"
    )
    llm.call(
        "memory",
        {
            "action": "add",
            "scope": "global",
            "type": "user",
            "content": "The user prefers answers in Chinese",
        },
    )
    llm.call("skill", {"name": "release"})
    llm.reply("done")
    env = env_for(llm, tmp_path)
    # a global entry reaches every project: -p saves it only with --yes
    proc = run_cli("--dir", str(workspace), "--yes", "-p", "cut a release", env=env)
    assert proc.returncode == 0, proc.stderr
    system = system_of(llm.requests[0])
    assert "Bump the version" not in system
    i, s = system.index("## Instructions"), system.index("## Skills")
    assert "Always run ruff before finishing." in system[i:s]
    assert "- release: Cut a release" in system[s:]
    assert all("Always run ruff" in system_of(r) for r in llm.requests)  # in every request
    skill_result = llm.requests[2].body["messages"][-1]
    assert "Bump the version in pyproject.toml, then tag." in skill_result["content"]

    llm.reply("好的")
    proc = run_cli("--dir", str(workspace), "-p", "hi", env=env)
    assert proc.returncode == 0, proc.stderr
    system = system_of(llm.requests[3])
    assert system.index("## Instructions") < system.index("## Skills") < system.index("## Memory")
    assert "- [user] The user prefers answers in Chinese" in system
    listed = run_cli("memory", "list", "--dir", str(workspace), env=env)
    assert "instruction files: AGENTS.md" in listed.stdout


def test_corrupt_memory_warns_and_the_session_still_runs(llm, workspace: Path, isolated_home: Path):
    path = isolated_home / "memory" / "projects" / project_id(workspace) / "memory.json"
    path.parent.mkdir(parents=True)
    path.write_text("not json at all")
    llm.reply("ok")
    proc = run_cli("--dir", str(workspace), "-p", "hi", env=provider_env(llm, "openai"))
    assert proc.returncode == 0 and proc.stdout.strip() == "ok"
    assert "warning" in proc.stderr and "kept as memory.json.corrupt-" in proc.stderr
    assert len(list(path.parent.glob("memory.json.corrupt-*"))) == 1
