"""The tools a session offers: only what can help, a lean set for local servers and small
windows, said in one line at start; through the real CLI and the scripted server."""

from __future__ import annotations

import json

from core.agent.session.toolset import LEAN
from my_agent.trust import trust_folder
from tests.conftest import provider_env, run_cli

SKILL = "---\nname: fmt\ndescription: format the code with the project's rules\n---\nRun black.\n"
AGENT = "---\nname: reviewer\ndescription: reviews a diff\ntools: Read, Grep\n---\nReview it.\n"


def names(request) -> set[str]:
    return {t["function"]["name"] for t in request.body.get("tools", [])}


def run(llm, workspace, provider: str, *extra: str, env: dict[str, str] | None = None):
    return run_cli(
        "--dir", str(workspace), "-p", "hi", "--provider", provider, *extra,
        env={**provider_env(llm, provider), **(env or {})},
    )  # fmt: skip


def test_a_local_server_gets_the_lean_set_and_is_told_in_one_line(llm, workspace):
    llm.reply("ok")
    proc = run(llm, workspace, "openai-compatible")
    assert proc.returncode == 0, proc.stderr
    assert names(llm.requests[0]) == set(LEAN)  # no skill, task, memory, recall, todo, code_map
    [line] = [ln for ln in proc.stderr.splitlines() if "tools:" in ln]
    assert line.startswith("unicum: tools: the lean set for a local server")
    assert "recall joins when an output is archived" in line


def test_the_line_reads_in_chinese(llm, workspace):
    llm.reply("ok")
    proc = run(llm, workspace, "openai-compatible", "--lang", "zh")
    assert proc.returncode == 0, proc.stderr
    assert "精简工具集" in proc.stderr and "the lean set" not in proc.stderr


def test_skill_only_when_the_project_has_skills(llm, workspace, isolated_home):
    llm.reply("ok").reply("ok")
    assert run(llm, workspace, "openai").returncode == 0
    assert "skill" not in names(llm.requests[0])
    (workspace / ".unicum" / "skills" / "fmt").mkdir(parents=True)
    (workspace / ".unicum" / "skills" / "fmt" / "SKILL.md").write_text(SKILL)
    trust_folder(workspace, isolated_home)  # what confirming the changed files at the REPL does
    assert run(llm, workspace, "openai-compatible").returncode == 0
    assert names(llm.requests[1]) == {*LEAN, "skill"}


def test_task_in_the_lean_set_only_with_sub_agents_defined(llm, workspace, isolated_home):
    llm.reply("ok").reply("ok")
    assert run(llm, workspace, "ollama").returncode == 0
    assert "task" not in names(llm.requests[0])
    (workspace / ".claude" / "agents").mkdir(parents=True)
    (workspace / ".claude" / "agents" / "reviewer.md").write_text(AGENT)
    trust_folder(workspace, isolated_home)  # what confirming the changed files at the REPL does
    assert run(llm, workspace, "ollama").returncode == 0
    assert names(llm.requests[1]) == {*LEAN, "task"}


def test_a_cloud_model_gets_the_full_set_less_what_cannot_help(llm, workspace):
    llm.reply("ok").reply("ok")
    proc = run(llm, workspace, "openai")
    assert proc.returncode == 0, proc.stderr
    full = names(llm.requests[0])
    assert {"task", "recall", "memory", "todo", "code_map", "web_search", "web_read"} <= full
    assert not full & {"skill", "clarify"}  # no skills; nobody answers a question in -p
    assert "tools:" not in proc.stderr  # -p states only a lean set: scripts get no extra line
    assert run(llm, workspace, "openai", "--sandbox-network", "off").returncode == 0
    assert names(llm.requests[1]) == full - {"web_search", "web_read"}


def test_the_tool_set_setting_and_a_bad_value(llm, workspace):
    llm.reply("ok")
    proc = run(llm, workspace, "openai-compatible", env={"UNICUM_TOOL_SET": "full"})
    assert proc.returncode == 0, proc.stderr
    assert {"memory", "task", "recall", "todo"} <= names(llm.requests[0])
    bad = run(llm, workspace, "openai-compatible", env={"UNICUM_TOOL_SET": "tiny"})
    assert bad.returncode == 2
    assert "tool_set must be one of auto, lean, full (got 'tiny')" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def test_tools_flag_still_wins(llm, workspace):
    llm.reply("ok")
    proc = run(llm, workspace, "openai-compatible", "--tools", "read_file,memory")
    assert proc.returncode == 0, proc.stderr
    assert names(llm.requests[0]) == {"read_file", "memory"}
    assert "unicum: tools: as --tools asks: memory, read_file" in proc.stderr


def test_recall_joins_the_request_that_first_shows_an_archived_output(llm, workspace):
    for i in range(5):
        (workspace / f"big{i}.txt").write_text(f"line {i} of a long file\n" * 2000)
        llm.call("read_file", {"path": f"big{i}.txt"})
    llm.reply("read them all")
    proc = run(llm, workspace, "openai-compatible", "--context-policy", "masking")
    assert proc.returncode == 0, proc.stderr
    shown = ["archived #" in json.dumps(r.body["messages"]) for r in llm.requests]
    offered = ["recall" in names(r) for r in llm.requests]
    assert shown[0] is False and any(shown)
    first = shown.index(True)
    assert offered == [False] * first + [True] * (len(offered) - first)
