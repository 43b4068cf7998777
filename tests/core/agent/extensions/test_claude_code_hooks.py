"""Hooks written for Claude Code (tests/fixtures/claude_code, copied from its reference,
unedited) behave as its reference says, through the real CLI and a scripted model."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from tests.helpers.hook_helpers import (
    FIXTURES,
    run_p,
    script,
    settings,
    tool_results,
    use_settings,
)


def hook(name: str) -> str:
    return f"{sys.executable} {FIXTURES / 'hooks' / name}"


def test_the_reference_file_protection_hook_blocks_env_writes_at_the_call(llm, workspace):
    use_settings(workspace, "file_protection_settings.json")
    (workspace / "notes.md").write_text("old\n")
    llm.call("write_file", {"path": ".env", "content": "TOKEN=x\n"})
    llm.call("edit_file", {"path": "notes.md", "old_string": "old", "new_string": "new"})
    llm.reply("done")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert not (workspace / ".env").exists()  # its file_path held ".env": exit 2 blocked it
    assert (workspace / "notes.md").read_text() == "new\n"  # the Edit matcher let this through
    assert "· write_file .env\n  ✗ blocked by a PreToolUse hook" in proc.stderr
    (blocked,) = tool_results(llm.requests[1].body)
    assert blocked.startswith("blocked by a PreToolUse hook; the call did not run")


def test_the_reference_bash_validator_blocks_grep_and_the_model_reads_why(llm, workspace):
    settings(
        workspace / ".claude",
        {
            "PreToolUse": [
                {
                    "matcher": "Bash",
                    "hooks": [{"type": "command", "command": hook("bash_command_validator.py")}],
                }
            ]
        },
    )
    (workspace / "a.txt").write_text("foo\n")
    llm.call("terminal", {"command": "grep foo a.txt"})
    llm.call("terminal", {"command": "cat a.txt"})
    llm.reply("ok")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    (first,) = tool_results(llm.requests[1].body)
    assert "Use 'rg' (ripgrep) instead of 'grep'" in first
    (second,) = tool_results(llm.requests[2].body)[1:]
    assert "foo" in second and "blocked" not in second  # exit 0: the call runs as usual
    assert "✗ blocked by a PreToolUse hook" in proc.stderr


def test_the_reference_auto_approve_hook_lets_a_documentation_read_run(llm, workspace, tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "guide.md").write_text("the guide\n")
    (outside / "data.bin").write_text("binary-ish\n")
    settings(
        workspace / ".claude",
        {
            "PreToolUse": [
                {"matcher": "Read", "hooks": [{"command": hook("pretooluse_auto_approve.py")}]}
            ]
        },
    )
    llm.call("read_file", {"path": str(outside / "guide.md")})
    llm.call("read_file", {"path": str(outside / "data.bin")})
    llm.reply("read")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    (approved,) = tool_results(llm.requests[1].body)
    assert "the guide" in approved  # outside the workspace, yet approved by the hook
    (refused,) = tool_results(llm.requests[2].body)[1:]
    assert refused.startswith("refused:")  # no approval: -p refuses a read outside


def test_the_reference_user_prompt_submit_hook(llm, workspace):
    settings(
        workspace / ".claude",
        {
            "UserPromptSubmit": [
                {"hooks": [{"type": "command", "command": hook("user_prompt_submit.py")}]}
            ]
        },
    )
    proc = run_p(llm, workspace, "here is my password: hunter2")
    assert proc.returncode != 0 and not llm.requests
    assert "Security policy violation: Prompt contains potential secrets" in proc.stderr
    llm.reply("fine")
    proc = run_p(llm, workspace, "what time is it?")
    assert proc.returncode == 0, proc.stderr
    sent = json.dumps(llm.requests[0].body["messages"])
    assert "Current time: " in sent  # plain stdout of exit 0 is context


def test_the_reference_bash_logging_hook_writes_its_log(llm, workspace, tmp_path):
    use_settings(workspace, "bash_logging_settings.json")
    (tmp_path / "user-home" / ".claude").mkdir()
    llm.call("terminal", {"command": "echo hi"})
    llm.reply("ok")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    log = tmp_path / "user-home" / ".claude" / "bash-command-log.txt"
    assert log.read_text() == "echo hi - No description\n"


def capture(tmp_path: Path) -> tuple[Path, str]:
    log = tmp_path / "events.jsonl"
    body = f"import sys\nopen({str(log)!r}, 'a').write(sys.stdin.read().strip() + '\\n')\n"
    return log, script(tmp_path, "capture", body)


def test_every_tool_reaches_hooks_in_claude_codes_names_and_shapes(llm, workspace, tmp_path):
    log, command = capture(tmp_path)
    settings(
        workspace / ".claude",
        {"PreToolUse": [{"matcher": "", "hooks": [{"command": command}]}]},
    )
    root = workspace.resolve()
    (workspace / "a.py").write_text("x = 1\n")
    calls = [
        ("terminal", {"command": "true", "timeout": 5}),
        ("read_file", {"path": "a.py", "offset": 1, "limit": 10}),
        ("write_file", {"path": "b.py", "content": "y = 2\n"}),
        ("edit_file", {"path": "a.py", "old_string": "x = 1", "new_string": "x = 3"}),
        ("search_files", {"pattern": "x", "path": ".", "file_glob": "*.py", "ignore_case": False}),
        ("list_files", {"pattern": "*.py"}),
        ("todo", {"todos": [{"content": "ship", "status": "pending"}]}),
    ]
    for name, args in calls:
        llm.call(name, args)
    llm.reply("done")
    proc = run_p(llm, workspace, "go", "--permission-mode", "acceptEdits")
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["tool_name"], e["tool_input"]) for e in events] == [
        ("Bash", {"command": "true", "timeout": 5000}),
        ("Read", {"file_path": str(root / "a.py"), "offset": 1, "limit": 10}),
        ("Write", {"file_path": str(root / "b.py"), "content": "y = 2\n"}),
        (
            "Edit",
            {"file_path": str(root / "a.py"), "old_string": "x = 1", "new_string": "x = 3"},
        ),
        ("Grep", {"pattern": "x", "path": str(root), "glob": "*.py", "-i": False}),
        ("Glob", {"pattern": "*.py"}),
        ("TodoWrite", {"todos": [{"content": "ship", "status": "pending"}]}),
    ]
    assert [e["unicum_tool_name"] for e in events] == [name for name, _ in calls]
    assert {e["permission_mode"] for e in events} == {"acceptEdits"}


def test_post_tool_use_gets_claude_codes_tool_response(llm, workspace, tmp_path):
    log, command = capture(tmp_path)
    settings(
        workspace / ".claude",
        {"PostToolUse": [{"matcher": "Write|Edit|Read", "hooks": [{"command": command}]}]},
    )
    llm.call("write_file", {"path": "n.txt", "content": "one\n"})
    llm.call("edit_file", {"path": "n.txt", "old_string": "one", "new_string": "two"})
    llm.call("read_file", {"path": "n.txt"})
    llm.reply("ok")
    assert run_p(llm, workspace).returncode == 0
    write, edit, read = [json.loads(line)["tool_response"] for line in log.read_text().splitlines()]
    path = str(workspace.resolve() / "n.txt")
    assert write == {"type": "create", "filePath": path, "content": "one\n", "success": True}
    assert edit["filePath"] == path and edit["oldString"] == "one" and edit["newString"] == "two"
    assert read["type"] == "text" and read["file"]["filePath"] == path
    assert "two" in read["file"]["content"]


def test_a_matcher_may_name_unicums_tool_or_an_mcp_pattern(llm, workspace, tmp_path):
    log, command = capture(tmp_path)
    settings(
        workspace / ".claude",
        {"PreToolUse": [{"matcher": "terminal|mcp__.*", "hooks": [{"command": command}]}]},
    )
    llm.call("terminal", {"command": "true"})
    llm.call("read_file", {"path": "x"})
    llm.reply("ok")
    assert run_p(llm, workspace).returncode == 0
    assert [json.loads(line)["tool_name"] for line in log.read_text().splitlines()] == ["Bash"]


def test_updated_input_changes_what_runs(llm, workspace, tmp_path):
    rewrite = script(
        tmp_path,
        "rewrite",
        "import json, sys\nevent = json.load(sys.stdin)\n"
        "cmd = event['tool_input']['command'].replace('rm ', 'echo kept ')\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'allow', 'updatedInput': {'command': cmd}}}))\n",
    )
    settings(
        workspace / ".claude",
        {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": rewrite}]}]},
    )
    (workspace / "notes.txt").write_text("keep me\n")
    llm.call("terminal", {"command": "rm notes.txt"})
    llm.reply("ok")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "notes.txt").exists()
    (result,) = tool_results(llm.requests[1].body)
    assert "kept notes.txt" in result


def test_permission_decision_deny_and_ask(llm, workspace, tmp_path):
    decide = script(
        tmp_path,
        "decide",
        "import json, sys\nevent = json.load(sys.stdin)\n"
        "cmd = event['tool_input']['command']\n"
        "decision = 'deny' if cmd.startswith('rm') else 'ask'\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': decision, 'permissionDecisionReason': 'policy ' + decision}}))\n",
    )
    settings(
        workspace / ".claude", {"PreToolUse": [{"matcher": "Bash", "hooks": [{"command": decide}]}]}
    )
    (workspace / "notes.txt").write_text("keep me\n")
    llm.call("terminal", {"command": "rm notes.txt"})
    llm.call("terminal", {"command": "touch made.txt"})
    llm.reply("ok")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "notes.txt").exists()  # deny: never runs
    assert not (workspace / "made.txt").exists()  # ask: nobody to ask in -p, so refused
    denied = tool_results(llm.requests[1].body)[0]
    asked = tool_results(llm.requests[2].body)[1]
    assert "policy deny" in denied and asked.startswith("refused:") and "policy ask" in asked


def test_disable_all_hooks_in_a_project_never_turns_off_the_users(llm, workspace, tmp_path):
    log, command = capture(tmp_path)
    settings(
        tmp_path / "unicum-home", {"PreToolUse": [{"matcher": "", "hooks": [{"command": command}]}]}
    )
    project = {
        "disableAllHooks": True,
        "hooks": {"PreToolUse": [{"hooks": [{"command": "exit 2"}]}]},
    }
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text(json.dumps(project))
    llm.call("terminal", {"command": "true"})
    llm.reply("ok")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert "blocked" not in tool_results(llm.requests[1].body)[0]  # the project's hook is off
    assert len(log.read_text().splitlines()) == 1  # the user's still runs
