"""Custom slash commands, skills as /name, `@path`, `!command`, /init and notifications, typed
into the real REPL in a pseudo-terminal (Tab completion included)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.helpers.repl_driver import start_repl, user_texts

REVIEW = """---
description: Review one file
argument-hint: FILE
allowed-tools: read_file
---
Please review $1 carefully (all: $ARGUMENTS).
"""
SKILL = "---\nname: deploy\ndescription: Ship it to staging\n---\nDeploy steps: run make ship.\n"


def project(workspace: Path, home: Path, tmp_path: Path) -> Path:
    (workspace / ".unicum" / "commands").mkdir(parents=True)
    (workspace / ".unicum" / "commands" / "review.md").write_text(REVIEW, encoding="utf-8")
    (workspace / ".claude" / "skills" / "deploy").mkdir(parents=True)
    (workspace / ".claude" / "skills" / "deploy" / "SKILL.md").write_text(SKILL)
    (workspace / "notes.txt").write_text("the secret word is zebra\n")
    (home / "config.json").write_text(json.dumps({"notifications": {"after_seconds": 0}}))
    heard = tmp_path / "notified.jsonl"
    hook = tmp_path / "hook.py"
    hook.write_text(f"import sys\nopen({str(heard)!r}, 'a').write(sys.stdin.read() + '\\n')\n")
    notification = {"hooks": [{"type": "command", "command": f"{sys.executable} {hook}"}]}
    (home / "settings.json").write_text(json.dumps({"hooks": {"Notification": [notification]}}))
    return heard


def test_commands_mentions_shell_and_notifications(llm, workspace, tmp_path, isolated_home):
    heard = project(workspace, isolated_home, tmp_path)
    for answer in ("reviewed", "explained", "noted", "deploying"):
        llm.reply(answer)
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.child.send("/rev\t")
        repl.expect(r"/review")
        repl.send(" notes.txt now")
        repl.expect("reviewed")
        repl.prompt()
        assert "Please review notes.txt carefully (all: notes.txt now)." in user_texts(
            llm.requests[0].body
        )
        assert "\x1b]9;Unicum: task finished" in repl.raw and "\x07" in repl.raw
        assert "]777;notify;Unicum;Unicum: task finished" in repl.raw

        repl.command("/help", r"/review FILE\s+Review one file \(custom command\)")
        assert "Ship it to staging (skill)" in repl.text

        repl.child.send("explain @no\t")
        repl.expect("@notes.txt")
        repl.send("")
        repl.expect(r"attached notes\.txt \(1 lines\)")
        repl.expect("explained")
        repl.prompt()
        sent = "\n".join(user_texts(llm.requests[1].body))
        assert '<file path="notes.txt">\nthe secret word is zebra\n</file>' in sent

        repl.command("!echo shell-output-$((40 + 2))", "shell-output-42")
        repl.command("what now?", "noted")
        sent = "\n".join(user_texts(llm.requests[2].body))
        assert "`echo shell-output-$((40 + 2))`" in sent and "shell-output-42" in sent

        repl.command("/deploy", "deploying")
        assert "Deploy steps: run make ship." in user_texts(llm.requests[3].body)[-1]
        repl.command("/nosuch", "unknown command /nosuch")
    finally:
        repl.close()
    events = [json.loads(line) for line in heard.read_text().splitlines()]
    assert events[0]["hook_event_name"] == "Notification"
    assert events[0]["message"].startswith("Unicum: task finished")


def test_init_is_written_by_the_model_and_shown_as_a_diff_first(llm, workspace, isolated_home):
    """/init: the model gets the code map and memory, reads what it chooses (nothing can be
    written meanwhile), answers with the file; the diff is shown, and the file written on yes."""
    from core.memory import MemoryStore

    (workspace / "app.py").write_text("def serve_forever():\n    return 1\n")
    (workspace / "Makefile").write_text("test:\n\tpytest -q\n")
    (workspace / "AGENTS.md").write_text("# Rules\n\nKeep it short.\n")
    MemoryStore(isolated_home, workspace).add("project", "notes", "deploys run on Fridays")
    llm.call("read_file", {"path": "Makefile"})
    llm.call("write_file", {"path": "AGENTS.md", "content": "sneaky"})  # refused: read-only
    written = "# Rules\n\nKeep it short.\n\n## Tests\n\nRun `make test` (pytest -q).\n"
    llm.reply(f"Here it is.\n\n```markdown\n{written}```\n")
    repl = start_repl(llm, workspace)
    try:
        repl.send("/init")
        repl.expect(r"not allowed in the plan mode")
        repl.expect(r"\+## Tests")
        repl.expect(r"\+Run `make test` \(pytest -q\)\.")
        repl.expect(r"Write AGENTS\.md\?")
        repl.expect(r"\[y\] yes · \[n\] no")
        assert (workspace / "AGENTS.md").read_text() == "# Rules\n\nKeep it short.\n"
        repl.child.send("y")
        repl.expect("wrote .*AGENTS.md")
        repl.prompt()
    finally:
        repl.close()
    assert (workspace / "AGENTS.md").read_text() == written
    asked = user_texts(llm.requests[0].body)[0]
    assert "Write the AGENTS.md file for this repository" in asked
    assert "serve_forever" in asked  # the code map's overview
    assert "deploys run on Fridays" in asked  # memory
    assert "<current>\n# Rules" in asked  # the file to revise


def test_allowed_tools_run_unasked_only_within_the_command(llm, workspace, tmp_path, isolated_home):
    (isolated_home / "config.json").write_text(
        json.dumps({"notifications": {"after_seconds": 0, "bell": False}})
    )
    (workspace / ".claude" / "commands").mkdir(parents=True)
    (workspace / ".claude" / "commands" / "mark.md").write_text(
        "---\nallowed-tools: Bash(echo:*)\n---\nMark it.\n"
    )
    outside = tmp_path / "outside.txt"
    llm.call("terminal", {"command": f"echo one > {outside}"})
    llm.reply("marked")
    llm.call("terminal", {"command": f"echo two > {outside}"})
    llm.reply("asked first")
    repl = start_repl(llm, workspace, "--no-codemap", "--sandbox", "off")  # so outside writes ask
    try:
        repl.command("/mark", "marked")
        assert outside.read_text().strip() == "one"
        repl.send("again")
        repl.expect(r"outside the workspace")  # a plain task asks as usual
        assert "\x1b]9;Unicum: waiting for your approval\x07" in repl.raw
        assert "\x07\x1b]9;" not in repl.raw  # the bell is off
        repl.send("n")
        repl.expect("asked first")
        repl.prompt()
    finally:
        repl.close()
    assert outside.read_text().strip() == "one"
