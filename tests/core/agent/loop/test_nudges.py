"""A small model's answer before anything changed is sent back with the next step, not taken
as the end: after a failed edit, an empty reply, code shown after working on the project. A
change made, a plain answer, a second answer right after a note, and the full set's model end
the task as before. Through the real CLI and the scripted server (a local one: the lean set)."""

from __future__ import annotations

import json

from tests.conftest import provider_env, run_cli

EDIT = {"path": "price.py", "old_string": '"$%d" % amount', "new_string": 'f"${amount:.2f}"'}
WRONG = {**EDIT, "old_string": "return amount"}  # not in the file


def run_json(llm, workspace, provider: str = "openai-compatible"):
    proc = run_cli(
        "--dir", str(workspace), "-p", "fix the failing test", "--provider", provider,
        "--output-format", "json", "--yes", env=provider_env(llm, provider),
    )  # fmt: skip
    return proc, json.loads(proc.stdout.strip().splitlines()[-1])


def project(workspace):
    (workspace / "price.py").write_text('def format_price(amount):\n    return "$%d" % amount\n')


def last_user_text(request) -> str:
    message = request.body["messages"][-1]
    if message["role"] != "user":
        return ""
    content = message["content"]
    return content if isinstance(content, str) else " ".join(p["text"] for p in content)


def test_an_answer_after_a_failed_edit_is_sent_back_and_the_model_makes_the_change(llm, workspace):
    project(workspace)
    llm.call("edit_file", WRONG).reply("Replace `return amount` with the f-string and it passes.")
    llm.call("edit_file", EDIT).reply("Fixed: two decimals.")
    proc, out = run_json(llm, workspace)
    assert out["stop"] == "done" and out["result"] == "Fixed: two decimals.", proc.stderr
    note = last_user_text(llm.requests[2])
    assert note.startswith("[unicum: nothing in the project has changed yet: your edit did not")
    assert "edit_file with old_string copied exactly" in note
    assert "give your answer again" not in note  # it meant to change a file
    assert "{amount:.2f}" in (workspace / "price.py").read_text()


def test_an_empty_reply_is_sent_back(llm, workspace):
    project(workspace)
    llm.call("edit_file", EDIT).reply("").reply("Changed price.py to show two decimals.")
    proc, out = run_json(llm, workspace)
    assert out["result"] == "Changed price.py to show two decimals.", proc.stderr
    assert last_user_text(llm.requests[2]).startswith("[unicum: your reply was empty.")


def test_code_shown_after_reading_is_sent_back(llm, workspace):
    project(workspace)
    llm.call("read_file", {"path": "price.py"})
    llm.reply("Use:\n```python\nreturn f'${amount:.2f}'\n```").reply("No change was asked.")
    proc, out = run_json(llm, workspace)
    assert out["result"] == "No change was asked." and len(llm.requests) == 3, proc.stderr
    assert last_user_text(llm.requests[2]).startswith("[unicum: nothing in the project")


def test_a_change_claimed_with_no_tool_used_is_sent_back(llm, workspace):
    project(workspace)
    llm.reply("I changed price.py to show two decimals; the tests pass.")
    llm.call("edit_file", EDIT).reply("Fixed.")
    proc, out = run_json(llm, workspace)
    assert out["result"] == "Fixed.", proc.stderr
    assert last_user_text(llm.requests[1]).startswith("[unicum: you used no tool, so nothing")
    assert "{amount:.2f}" in (workspace / "price.py").read_text()


def test_a_change_made_or_a_plain_answer_ends_the_task_at_once(llm, workspace):
    project(workspace)
    llm.call("edit_file", EDIT).reply("Fixed.")
    _, out = run_json(llm, workspace)
    assert out["result"] == "Fixed." and len(llm.requests) == 2
    llm.call("read_file", {"path": "price.py"}).reply("It formats a price with %d.")
    _, out = run_json(llm, workspace)
    assert out["result"] == "It formats a price with %d." and len(llm.requests) == 4
    llm.reply("Hello! What shall I do?")  # no tool, no code, no file named: a plain answer
    _, out = run_json(llm, workspace)
    assert out["result"] == "Hello! What shall I do?" and len(llm.requests) == 5


def test_a_command_that_writes_a_file_is_a_change(llm, workspace):
    project(workspace)
    llm.call("terminal", {"command": "sed -i 's/%d/%.2f/' price.py"}).reply("Done.")
    proc, out = run_json(llm, workspace)
    assert out["result"] == "Done." and len(llm.requests) == 2, proc.stderr
    assert "%.2f" in (workspace / "price.py").read_text()


def test_an_answer_repeated_after_a_note_stands_and_notes_are_capped(llm, workspace):
    project(workspace)
    llm.call("edit_file", WRONG).reply("Edit it yourself.").reply("Edit it yourself.")
    _, out = run_json(llm, workspace)
    assert out["result"] == "Edit it yourself." and len(llm.requests) == 3
    for _ in range(3):
        llm.call("edit_file", WRONG).reply("Cannot.")
    _, out = run_json(llm, workspace)
    assert out["stop"] == "done" and out["result"] == "Cannot."
    notes = [r for r in llm.requests[3:] if "[unicum: nothing in the project" in last_user_text(r)]
    assert len(notes) == 2  # MAX_NUDGES: the third answer stands


def test_the_full_set_gets_no_note(llm, workspace):
    project(workspace)
    llm.call("edit_file", WRONG).reply("Edit it yourself.")
    _, out = run_json(llm, workspace, "openai")
    assert out["result"] == "Edit it yourself." and len(llm.requests) == 2
