"""Claude-Code-style hooks from settings files, through the real CLI `-p` and a scripted model."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.hook_helpers import run_p, script, settings, tool_results


def test_pre_tool_use_blocks_with_the_reason_the_model_sees(llm, workspace, tmp_path):
    seen = tmp_path / "seen.json"
    guard = script(
        tmp_path,
        "guard",
        "import json, sys\n"
        f"open({str(seen)!r}, 'w').write(sys.stdin.read())\n"
        "sys.stderr.write('no writes to secrets.txt')\nsys.exit(2)\n",
    )
    settings(
        workspace / ".claude",
        {
            "PreToolUse": [
                {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": guard}]}
            ]
        },
    )
    llm.call("write_file", {"path": "secrets.txt", "content": "x"})
    llm.reply("understood")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "understood"
    assert not (workspace / "secrets.txt").exists()  # nothing executed
    # the notice is at the call, with its ✗ line, not after the answer
    assert "· write_file secrets.txt\n  ✗ blocked by a PreToolUse hook" in proc.stderr
    assert "no writes to secrets.txt" in proc.stderr
    (result,) = tool_results(llm.requests[1].body)
    assert "blocked by a PreToolUse hook" in result and "no writes to secrets.txt" in result
    event = json.loads(seen.read_text())
    assert event["hook_event_name"] == "PreToolUse" and event["tool_name"] == "Write"
    target = str(workspace.resolve() / "secrets.txt")
    assert event["tool_input"] == {"file_path": target, "content": "x"}
    assert event["unicum_tool_name"] == "write_file"
    assert event["unicum_tool_input"] == {"path": "secrets.txt", "content": "x"}
    assert event["cwd"] == str(workspace.resolve()) and event["session_id"]
    assert event["permission_mode"] == "default" and event["tool_use_id"]


def test_pre_tool_use_json_approve_and_post_tool_use(llm, workspace, tmp_path):
    log = tmp_path / "post.jsonl"
    allow = script(tmp_path, "allow", 'print(\'{"decision": "approve", "reason": "ok"}\')\n')
    post = script(
        tmp_path, "post", f"import sys\nopen({str(log)!r}, 'a').write(sys.stdin.read() + '\\n')\n"
    )
    settings(
        tmp_path / "unicum-home",
        {
            "PreToolUse": [{"matcher": "terminal", "hooks": [{"command": allow}]}],
            "PostToolUse": [{"matcher": "*", "hooks": [{"command": post}]}],
        },
    )
    # unsandboxed, a write outside the workspace is asked (refused in -p) unless approved
    llm.call("terminal", {"command": f"echo made > {tmp_path / 'out.txt'}"})
    llm.reply("done")
    proc = run_p(llm, workspace, "go", "--sandbox", "off")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "out.txt").read_text().strip() == "made"
    event = json.loads(log.read_text().splitlines()[0])
    assert event["hook_event_name"] == "PostToolUse" and event["tool_name"] == "Bash"
    assert event["tool_input"]["command"].startswith("echo made > ")
    assert event["tool_response"]["interrupted"] is False
    assert {"stdout", "stderr", "isImage"} <= set(event["tool_response"])


def test_user_prompt_submit_and_session_start_add_context(llm, workspace, tmp_path):
    add = script(
        tmp_path,
        "add",
        "import json, sys\nevent = json.load(sys.stdin)\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'UserPromptSubmit',"
        " 'additionalContext': 'ticket FOO-42 is ' + event['prompt']}}))\n",
    )
    start = script(tmp_path, "start", "print('the build is green')\n")
    stopped = tmp_path / "stop.json"
    stop = script(
        tmp_path, "stop", f"import sys\nopen({str(stopped)!r}, 'w').write(sys.stdin.read())\n"
    )
    settings(
        workspace / ".unicum",
        {
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": add}]}],
            "SessionStart": [{"hooks": [{"type": "command", "command": start}]}],
            "Stop": [{"hooks": [{"type": "command", "command": stop}]}],
        },
    )
    llm.reply("ok")
    proc = run_p(llm, workspace, "urgent")
    assert proc.returncode == 0, proc.stderr
    user = json.dumps([m for m in llm.requests[0].body["messages"] if m["role"] == "user"])
    assert "ticket FOO-42 is urgent" in user and "the build is green" in user
    assert json.loads(stopped.read_text())["hook_event_name"] == "Stop"


def test_user_prompt_submit_exit_2_refuses_the_task(llm, workspace, tmp_path):
    deny = script(
        tmp_path, "deny", "import sys\nsys.stderr.write('no deploys on Friday')\nsys.exit(2)\n"
    )
    settings(workspace / ".claude", {"UserPromptSubmit": [{"hooks": [{"command": deny}]}]})
    proc = run_p(llm, workspace, "deploy")
    assert proc.returncode != 0 and not llm.requests
    assert "prompt blocked by a UserPromptSubmit hook: no deploys on Friday" in proc.stderr


def test_a_hook_that_times_out_is_one_warning_and_the_session_goes_on(llm, workspace, tmp_path):
    slow = script(tmp_path, "slow", "import time\ntime.sleep(30)\n")
    settings(
        workspace / ".claude",
        {
            "PreToolUse": [
                {"matcher": "*", "hooks": [{"type": "command", "command": slow, "timeout": 1}]}
            ]
        },
    )
    (workspace / "a.txt").write_text("alpha\n")
    llm.call("read_file", {"path": "a.txt"})
    llm.reply("read it")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "read it"
    assert proc.stderr.count("timed out after 1s") == 1, proc.stderr
    (result,) = tool_results(llm.requests[1].body)
    assert "alpha" in result  # the tool ran as if no hook were there


def user_messages(body: dict) -> list[str]:
    return [m["content"] for m in body["messages"] if m["role"] == "user"]


def block_once(tmp_path: Path, reason: str) -> tuple[Path, str]:
    """A Stop hook that logs each event it hears and blocks once, with `reason`."""
    log = tmp_path / "stop.jsonl"
    once = script(
        tmp_path,
        "once",
        "import json, sys\nevent = json.load(sys.stdin)\n"
        f"open({str(log)!r}, 'a').write(json.dumps(event) + '\\n')\n"
        "if not event['stop_hook_active']:\n"
        f"    print(json.dumps({{'decision': 'block', 'reason': {reason!r}}}))\n",
    )
    return log, once


def test_a_stop_hook_that_blocks_sends_the_model_back_with_its_reason(llm, workspace, tmp_path):
    log, once = block_once(tmp_path, "run the tests before you stop")
    settings(workspace / ".claude", {"Stop": [{"hooks": [{"type": "command", "command": once}]}]})
    llm.reply("all done")
    llm.reply("tests pass, now done")
    proc = run_p(llm, workspace, "fix it")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "tests pass, now done"
    assert len(llm.requests) == 2
    assert "run the tests before you stop" in user_messages(llm.requests[1].body)[-1]
    assert "run the tests before you stop" not in json.dumps(llm.requests[0].body)
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["stop_hook_active"] for e in events] == [False, True]  # once per answer, no more
    assert {e["hook_event_name"] for e in events} == {"Stop"}


def test_a_continued_task_that_ends_by_its_turn_limit_is_still_told_to_stop_hooks(
    llm, workspace, tmp_path
):
    log, once = block_once(tmp_path, "check a.py")
    settings(workspace / ".unicum", {"Stop": [{"hooks": [{"command": once}]}]})
    (workspace / "a.py").write_text("x = 1\n")
    llm.reply("all done")
    llm.call("read_file", {"path": "a.py"})
    proc = run_p(llm, workspace, "fix it", "--max-turns", "2")
    assert proc.returncode != 0 and len(llm.requests) == 2, proc.stderr
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["stop_reason"] for e in events] == ["done", "max_turns"]  # the real end is heard


def test_a_stop_hook_blocking_the_last_turn_keeps_the_answer_with_one_line(
    llm, workspace, tmp_path
):
    _, once = block_once(tmp_path, "run the tests")
    settings(workspace / ".unicum", {"Stop": [{"hooks": [{"command": once}]}]})
    llm.reply("all done")
    proc = run_p(llm, workspace, "fix it", "--max-turns", "1")
    assert proc.returncode == 0 and proc.stdout.strip() == "all done", proc.stderr
    assert len(llm.requests) == 1
    line = "a Stop hook asked to go on, but no turns are left (--max-turns 1; its reason: run the tests)"
    assert proc.stderr.count(line) == 1, proc.stderr


def test_a_stop_hook_that_always_blocks_is_capped_with_one_line(llm, workspace, tmp_path):
    nag = script(tmp_path, "nag", "import sys\nsys.stderr.write('not yet')\nsys.exit(2)\n")
    settings(tmp_path / "unicum-home", {"Stop": [{"hooks": [{"command": nag}]}]})
    for n in range(1, 5):
        llm.reply(f"answer {n}")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "answer 4"
    assert len(llm.requests) == 4  # the task and three continuations
    assert user_messages(llm.requests[3].body)[-1] == "[Stop hook] not yet"
    line = "a Stop hook asked to go on again; stopped after 3 continuations (its reason: not yet)"
    assert proc.stderr.count(line) == 1, proc.stderr


def test_a_stop_hook_saying_continue_false_ends_the_task(llm, workspace, tmp_path):
    halt = script(tmp_path, "halt", 'print(\'{"continue": false, "stopReason": "enough"}\')\n')
    settings(workspace / ".unicum", {"Stop": [{"hooks": [{"command": halt}]}]})
    llm.reply("finished")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "finished" and len(llm.requests) == 1


def test_the_stop_cap_line_reads_in_chinese():
    from core.agent.loop.agent import MAX_STOP_CONTINUES, STOP_CAP
    from ui.words.strings import Strings

    line = STOP_CAP.format(n=MAX_STOP_CONTINUES, why="not yet")
    assert Strings("en").line(line) == line
    assert (
        Strings("zh").line(line)
        == "Stop 钩子再次要求继续；已在继续 3 次后停止（它的理由：not yet）"
    )


def test_the_no_turns_left_line_reads_in_chinese():
    from core.agent.loop.agent import STOP_NO_TURNS
    from ui.words.strings import Strings

    line = STOP_NO_TURNS.format(n=1, why="run the tests")
    assert Strings("en").line(line) == line
    assert Strings("zh").line(line) == (
        "Stop 钩子要求继续，但已没有剩余轮次（--max-turns 1；它的理由：run the tests）"
    )
