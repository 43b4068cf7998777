"""Tasks are named by what the user typed, kept with the task in the ledger: `/usage tasks`,
`unicum usage tasks` and the dashboard show it, whatever notes /undo, /rewind or plan mode put
into the conversation, and a resumed session numbers its tasks after the ones it had."""

from __future__ import annotations

import json
import re

from tests.conftest import provider_env, run_cli
from tests.helpers.repl_driver import Repl

USAGE = {"input": 100, "cache_read": 0, "cache_write": 0, "output": 10}
TYPED = ["make greet.txt", "say hi", "check the code", "check the code", "after the rewind"]


def script(llm) -> None:
    llm.call("write_file", {"path": "greet.txt", "content": "hi\n"}, usage=USAGE)
    llm.reply("written", usage=USAGE)
    llm.reply("hi there", usage=USAGE)
    llm.reply("Plan:\n1. read the code", usage=USAGE)
    llm.reply("carried out", usage=USAGE)
    llm.reply("rewound and fine", usage=USAGE)


def rows_of(table: str, labels: list[str]) -> list[str]:
    """The task column of the table's rows, in order, for the labels expected."""
    found = []
    for line in table.splitlines():
        label = next((t for t in labels if line.strip(" │┃").startswith(t)), None)
        if label:
            found.append(label)
    return found


def test_labels_are_what_was_typed_after_undo_plan_and_rewind(llm, workspace, tmp_path):
    script(llm)
    repl = Repl(
        "--dir", str(workspace), "--provider", "openai", "--no-codemap",
        "--permission-mode", "auto-edit", env=provider_env(llm, "openai"), columns=110,
    )  # fmt: skip
    try:
        repl.prompt()
        repl.command("make greet.txt", "written")
        repl.command("/undo", r"Undid turn 1")
        repl.command("say hi", "hi there")
        repl.send("/plan check the code")
        repl.expect(r"Run this plan\? \[y\] yes")
        repl.child.send("y")
        repl.expect("carried out")
        repl.prompt()
        repl.command("/rewind 3 chat", "conversation back to before turn 3")
        repl.command("after the rewind", "rewound and fine")
        mark = repl.pos
        repl.command("/usage tasks", r"total\s+6\s")
        table = repl.text[mark : repl.pos]
        assert rows_of(table, TYPED[:3] + TYPED[4:]) == TYPED, table
        assert "[The user ran" not in table and "Plan mode" not in table
        assert "approved the plan" not in table
        repl.send("/quit")
        assert repl.wait_exit() == 0
    finally:
        repl.close()
    assert (workspace / "greet.txt").exists() is False  # /undo took it back
    groups = json.loads(run_cli("usage", "tasks", "--json").stdout)["groups"]
    assert [g["task"] for g in groups] == TYPED
    assert [g["stop"] for g in groups] == ["done"] * 5
    text = run_cli("usage", "--by", "task").stdout
    assert rows_of(text, TYPED[:3] + TYPED[4:]) == TYPED
    page = tmp_path / "usage.html"
    assert run_cli("usage", "--html", str(page)).returncode == 0
    html = page.read_text(encoding="utf-8")
    cells = re.findall(r'<td class="task-text">([^<]*)</td>', html)
    assert sorted(cells) == sorted(TYPED)


def test_a_resumed_session_numbers_its_tasks_after_the_saved_ones(llm, workspace):
    env = provider_env(llm, "openai")
    args = ("--dir", str(workspace), "--provider", "openai", "--no-codemap")
    llm.reply("one", usage=USAGE)
    llm.reply("two", usage=USAGE)
    first = run_cli(*args, "-p", "first task", "--output-format", "json", env=env)
    session = json.loads(first.stdout.strip().splitlines()[-1])["session_id"]
    again = run_cli(*args, "--continue", "-p", "second task", "--output-format", "json", env=env)
    assert json.loads(again.stdout.strip().splitlines()[-1])["session_id"] == session
    groups = json.loads(run_cli("usage", "tasks", "--json").stdout)["groups"]
    assert [(g["key"], g["task"], g["requests"]) for g in groups] == [
        (f"{session}/1", "first task", 1),
        (f"{session}/2", "second task", 1),
    ]
