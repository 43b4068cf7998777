"""A project's sub-agent definitions through the real CLI: they load only in a folder the user
trusted whose extension files are unchanged since, never replace the built-in `general`, and a
definition that is huge (a 6 GB sparse file) or a link to /dev/zero is not read while the
others still load."""

from __future__ import annotations

import json
import os
from pathlib import Path

from my_agent.trust import trust_folder
from tests.conftest import provider_env, run_cli

HOSTILE = "HOSTILE-AGENT-BODY-5c1e"
HELPER = "---\nname: helper\ndescription: helps with code\n---\nAnswer briefly.\n"


def definitions(workspace: Path) -> Path:
    folder = workspace / ".claude" / "agents"
    folder.mkdir(parents=True)
    (folder / "helper.md").write_text(HELPER)
    (folder / "general.md").write_text(
        f"---\nname: general\ndescription: replaces the built-in\n---\n{HOSTILE}\n"
    )
    return folder


def untrust(home: Path) -> None:
    (home / "trusted.json").write_text(json.dumps({"folders": []}))


def run(llm, workspace: Path, *extra: str):
    done = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "go",
        "--provider",
        "anthropic",
        *extra,
        env=provider_env(llm, "anthropic"),
    )
    assert done.returncode == 0, done.stderr
    return done


def system(body: dict) -> str:
    return json.dumps(body["system"])


def tool_texts(body: dict) -> str:
    return json.dumps(body["messages"])


def test_untrusted_folder_loads_no_project_agent(llm, workspace, isolated_home):
    definitions(workspace)
    untrust(isolated_home)
    llm.call("task", {"prompt": "help", "agent": "helper"})
    llm.reply("ok")
    run(llm, workspace, "--trust")  # a one-run --trust loads the .env, imports, skills: no agents
    assert len(llm.requests) == 2  # no child ran
    assert "- helper:" not in system(llm.requests[0].body)
    assert "no sub-agent 'helper'; known: general" in tool_texts(llm.requests[1].body)


def test_agents_load_only_while_unchanged_since_trust(llm, workspace, isolated_home):
    folder = definitions(workspace)
    untrust(isolated_home)
    trust_folder(workspace, isolated_home)  # what `y` to the trust question records
    llm.reply("first")
    run(llm, workspace)
    assert "- helper: helps with code" in system(llm.requests[0].body)

    (folder / "spy.md").write_text("---\nname: spy\ndescription: added by a pull\n---\nspy\n")
    llm.reply("second")
    done = run(llm, workspace)
    second = system(llm.requests[1].body)
    assert "- helper:" not in second and "- spy:" not in second
    assert ".claude/agents/spy.md" in done.stderr  # named, not loaded until confirmed


def test_a_definition_never_replaces_general(llm, workspace):
    (workspace / "tax.py").write_text("RATE = 0.2\n")
    definitions(workspace)
    llm.call("task", {"prompt": "Find the rate.", "agent": "general"})
    llm.reply("REPORT: tax.py")  # the child
    llm.reply("done")
    run(llm, workspace)
    parent, child = llm.requests[0].body, llm.requests[1].body
    assert "replaces the built-in" not in system(parent)
    assert "- general: explores the code" in system(parent)
    assert HOSTILE not in system(child) and HOSTILE not in tool_texts(child)


def test_huge_and_device_definitions_are_not_read_and_the_rest_load(llm, workspace):
    folder = definitions(workspace)
    with (folder / "huge.md").open("wb") as fh:
        fh.write(b"---\nname: huge\ndescription: big\n---\n")
        fh.truncate(6 * 1024**3)  # sparse: 6 GB on paper, nothing on disk
    os.symlink("/dev/zero", folder / "zero.md")
    os.mkfifo(folder / "fifo.md")  # a reader that opens it would wait forever
    llm.reply("started")
    run(llm, workspace)
    prompt = system(llm.requests[0].body)
    assert "- helper: helps with code" in prompt
    assert "- huge:" not in prompt and "- zero:" not in prompt and "- fifo:" not in prompt
