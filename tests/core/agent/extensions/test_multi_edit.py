"""Claude Code's MultiEdit is edit_file with `edits`: several replacements in one file, in
order, all or none. Through the real CLI `-p` and a scripted model: the file changes once or
not at all, hooks see `MultiEdit` with Claude Code's input (`file_path` absolute, `edits`),
an `Edit` matcher or a `MultiEdit` rule keeps to its own kind of call."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.hook_helpers import run_p, script, tool_results

EDITS = [
    {"old_string": "alpha", "new_string": "ALPHA"},
    {"old_string": "ALPHA beta", "new_string": "ALPHA BETA"},  # sees the first edit's result
    {"old_string": "x", "new_string": "y", "replace_all": True},
]
TEXT = "alpha beta\nx x\n"


def accept_edits(llm, workspace: Path):
    return run_p(llm, workspace, "go", "--permission-mode", "acceptEdits")


def test_edits_apply_in_order_as_one_change(llm, workspace):
    (workspace / "a.txt").write_text(TEXT)
    llm.call("edit_file", {"path": "a.txt", "edits": EDITS})
    llm.reply("done")
    proc = accept_edits(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "a.txt").read_text() == "ALPHA BETA\ny y\n"
    (result,) = tool_results(llm.requests[1].body)
    assert result.startswith("edited a.txt (+2 -2)")


def test_one_failing_edit_leaves_the_file_as_it_was(llm, workspace):
    (workspace / "a.txt").write_text(TEXT)
    broken = [EDITS[0], {"old_string": "gamma", "new_string": "G"}]
    llm.call("edit_file", {"path": "a.txt", "edits": broken})
    llm.call(
        "edit_file", {"path": "a.txt", "edits": EDITS[:1], "old_string": "a", "new_string": "b"}
    )
    llm.reply("done")
    proc = accept_edits(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "a.txt").read_text() == TEXT  # the first edit was not kept either
    failed, both = tool_results(llm.requests[2].body)
    assert failed.startswith("edit 2 of 2: old_string not found in a.txt")
    assert "No edit was applied (all or none): the file is unchanged." in failed
    assert "give old_string and new_string, or edits, not both" in both


def test_hooks_see_multiedit_in_claude_codes_shape(llm, workspace, tmp_path):
    seen = tmp_path / "seen.jsonl"
    log = script(
        tmp_path,
        "log",
        f"import json, sys\nopen({str(seen)!r}, 'a').write(json.dumps(json.load(sys.stdin)) + '\\n')\n",
    )
    hooks = [{"type": "command", "command": log}]
    settings = {
        "hooks": {
            "PreToolUse": [{"matcher": "MultiEdit", "hooks": hooks}],
            "PostToolUse": [{"matcher": "Edit", "hooks": hooks}],
        }
    }
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text(json.dumps(settings))
    (workspace / "a.txt").write_text(TEXT)
    llm.call("edit_file", {"path": "a.txt", "edits": EDITS[:1]})
    llm.call("edit_file", {"path": "a.txt", "old_string": "beta", "new_string": "b"})
    llm.reply("done")
    proc = accept_edits(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    pre, post = [json.loads(line) for line in seen.read_text().splitlines()]
    assert pre["hook_event_name"] == "PreToolUse" and pre["tool_name"] == "MultiEdit"
    path = str((workspace / "a.txt").resolve())
    assert pre["tool_input"] == {"file_path": path, "edits": EDITS[:1]}
    # the Edit matcher heard only the single edit, in Edit's shape
    assert post["hook_event_name"] == "PostToolUse" and post["tool_name"] == "Edit"
    assert post["tool_input"]["old_string"] == "beta" and "edits" not in post["tool_input"]


def test_a_multiedit_rule_covers_multi_edits_and_an_edit_rule_covers_both(
    llm, workspace, isolated_home
):
    rules = {"permissions": {"deny": ["MultiEdit"]}}
    (isolated_home / "settings.json").write_text(json.dumps(rules))
    (workspace / "a.txt").write_text(TEXT)
    llm.call("edit_file", {"path": "a.txt", "edits": EDITS[:1]})
    llm.call("edit_file", {"path": "a.txt", "old_string": "beta", "new_string": "b"})
    llm.reply("done")
    proc = accept_edits(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    denied, single = tool_results(llm.requests[2].body)
    assert "MultiEdit" in denied and "edited" not in denied
    assert single.startswith("edited a.txt")
    assert (workspace / "a.txt").read_text() == "alpha b\nx x\n"
    rules = {"permissions": {"deny": ["Edit(a.txt)"]}}
    (isolated_home / "settings.json").write_text(json.dumps(rules))
    llm.call("edit_file", {"path": "a.txt", "edits": EDITS[:1]})
    llm.call("edit_file", {"path": "a.txt", "old_string": "b", "new_string": "c"})
    llm.reply("done")
    proc = accept_edits(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "a.txt").read_text() == "alpha b\nx x\n"  # neither ran
    assert all("edited" not in r for r in tool_results(llm.requests[-1].body))


def test_an_edit_missing_its_new_string_is_refused_before_anything_runs(llm, workspace):
    (workspace / "a.txt").write_text(TEXT)
    llm.call("edit_file", {"path": "a.txt", "edits": [EDITS[0], {"old_string": "beta"}]})
    llm.reply("done")
    proc = accept_edits(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "a.txt").read_text() == TEXT
    (result,) = tool_results(llm.requests[1].body)
    assert "edits[]: missing required argument 'new_string'" in result


def test_a_multi_edit_fact_counts_its_edits_and_lines(workspace, isolated_home):
    from core.facts import extract
    from my_agent.messages import ToolCall
    from tools.base import ToolContext
    from tools.registry import Registry

    (workspace / "a.txt").write_text(TEXT)
    ctx = ToolContext(workspace=workspace, home=isolated_home, permission_mode="auto-edit")
    call = ToolCall("c1", "edit_file", {"path": "a.txt", "edits": EDITS})
    fact = extract(call, Registry.default().execute("edit_file", call.arguments, ctx))
    assert fact.kind == "edit" and fact.path == "a.txt" and fact.ok
    assert fact.summary == "3 edits, -2 +2 lines at l.1"
