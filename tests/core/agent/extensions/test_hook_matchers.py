"""Hook matchers as Claude Code's hooks reference ("Matcher patterns") defines them, through
the real CLI `-p`: letters, digits, `_`, `-`, spaces, `,` and `|` are exact names (a list with
`|` or `,`); anything else is a regex found anywhere in the name; `SessionStart` matches how
the session started (`startup`, `resume`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from tests.helpers.hook_helpers import FIXTURES, run_p, script, tool_results


def logging_hooks(workspace: Path, tmp_path: Path, event: str, matchers: list[str]) -> Path:
    """One hook per matcher, each writing `matcher tool_name` (or the source) to a log."""
    seen = tmp_path / "seen.txt"
    body = (
        "import json, sys\nevent = json.load(sys.stdin)\n"
        f"open({str(seen)!r}, 'a').write(sys.argv[1] + '\\t' + "
        "(event.get('tool_name') or event.get('source', '')) + '\\n')\n"
    )
    log = script(tmp_path, "log", body)
    groups = [
        {"matcher": m, "hooks": [{"type": "command", "command": f"{log} {json.dumps(m)}"}]}
        for m in matchers
    ]
    (workspace / ".claude").mkdir(exist_ok=True)
    (workspace / ".claude" / "settings.json").write_text(json.dumps({"hooks": {event: groups}}))
    return seen


def test_exact_names_lists_and_unanchored_regexes(llm, workspace, tmp_path):
    matchers = ["Edit, Write", "Write", "Writ", "^Wri", "rite$", "Bash|Read", "edit_file"]
    seen = logging_hooks(workspace, tmp_path, "PreToolUse", matchers)
    llm.call("write_file", {"path": "a.txt", "content": "x\n"})
    llm.reply("done")
    proc = run_p(llm, workspace, "go", "--permission-mode", "acceptEdits")
    assert proc.returncode == 0, proc.stderr
    fired = sorted(line.split("\t") for line in seen.read_text().splitlines())
    # "Writ" is exact (no match); "^Wri" and "rite$" are regexes found in "Write"
    assert fired == sorted([[m, "Write"] for m in ("Edit, Write", "Write", "^Wri", "rite$")])


def test_session_start_matches_how_the_session_started(llm, workspace, tmp_path):
    seen = logging_hooks(workspace, tmp_path, "SessionStart", ["startup", "resume", "*"])
    llm.reply("done")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert sorted(seen.read_text().splitlines()) == ["*\tstartup", "startup\tstartup"]


def test_updated_input_replaces_the_whole_input(llm, workspace, tmp_path):
    # the reference: updatedInput "replaces the entire input object" - a field left out is gone
    rewrite = script(
        tmp_path,
        "rewrite",
        "import json, sys\nevent = json.load(sys.stdin)\nkept = dict(event['tool_input'])\n"
        "kept.pop('replace_all')\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'allow', 'updatedInput': kept}}))\n",
    )
    hooks = {"PreToolUse": [{"matcher": "Edit", "hooks": [{"command": rewrite}]}]}
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    (workspace / "a.txt").write_text("x\nx\n")
    llm.call(
        "edit_file", {"path": "a.txt", "old_string": "x", "new_string": "z", "replace_all": True}
    )
    llm.reply("done")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "a.txt").read_text() == "x\nx\n"  # without replace_all: refused
    (result,) = tool_results(llm.requests[1].body)
    assert "old_string occurs 2 times in a.txt" in result


def test_todays_protect_files_hook_blocks_env_and_lockfile_edits(llm, workspace):
    # hooks-guide "Block edits to protected files" (today's page): its script and settings
    hooks = workspace / ".claude" / "hooks"
    hooks.mkdir(parents=True)
    shutil.copy(FIXTURES / "hooks" / "protect-files.sh", hooks / "protect-files.sh")
    shutil.copy(FIXTURES / "protect_files_settings.json", workspace / ".claude" / "settings.json")
    (workspace / "package-lock.json").write_text("{}\n")
    (workspace / "notes.md").write_text("old\n")
    llm.call("write_file", {"path": ".env", "content": "TOKEN=x\n"})
    llm.call("edit_file", {"path": "package-lock.json", "old_string": "{}", "new_string": "[]"})
    llm.call("edit_file", {"path": "notes.md", "old_string": "old", "new_string": "new"})
    llm.reply("done")
    proc = run_p(llm, workspace, "go", "--permission-mode", "acceptEdits")
    assert proc.returncode == 0, proc.stderr
    env, lock, notes = tool_results(llm.requests[-1].body)
    path = (workspace / ".env").resolve()
    assert f"Blocked: {path} matches protected pattern '.env'" in env
    assert "matches protected pattern 'package-lock.json'" in lock
    assert not (workspace / ".env").exists()
    assert (workspace / "package-lock.json").read_text() == "{}\n"
    assert notes.startswith("edited notes.md") and (workspace / "notes.md").read_text() == "new\n"


def test_notification_hooks_match_claude_codes_notification_type(llm, workspace, tmp_path):
    seen = tmp_path / "seen.jsonl"
    log = script(
        tmp_path,
        "log",
        f"import sys\nopen({str(seen)!r}, 'a').write(sys.argv[1] + '\\t' + sys.stdin.read().replace(chr(10), ' ') + '\\n')\n",
    )
    groups = [
        {"matcher": m, "hooks": [{"type": "command", "command": f"{log} {m}"}]}
        for m in ("idle_prompt", "permission_prompt")
    ]
    (workspace / ".claude").mkdir()
    settings = {"hooks": {"Notification": groups}}
    (workspace / ".claude" / "settings.json").write_text(json.dumps(settings))
    llm.reply("done")
    proc = run_p(llm, workspace)  # -p: the task's end is told to the Notification hooks
    assert proc.returncode == 0, proc.stderr
    (line,) = seen.read_text().splitlines()
    matcher, event = line.split("\t")
    assert matcher == "idle_prompt"
    assert json.loads(event)["notification_type"] == "idle_prompt"
