"""Claude Code configuration in the real REPL, typed in a pseudo-terminal: a hook's
`permissionDecision: "ask"` asks at the keyboard, and a blocked call shows where it happened."""

from __future__ import annotations

import json
import sys

from tests.ui.repl.test_repl import start


def test_ask_asks_at_the_keyboard_and_a_block_shows_at_its_call(llm, workspace, tmp_path):
    decide = tmp_path / "decide.py"
    decide.write_text(
        "import json, sys\nevent = json.load(sys.stdin)\n"
        "cmd = event['tool_input']['command']\n"
        "if cmd.startswith('rm'):\n"
        "    sys.stderr.write('no rm here')\n    sys.exit(2)\n"
        "print(json.dumps({'hookSpecificOutput': {'hookEventName': 'PreToolUse',"
        " 'permissionDecision': 'ask', 'permissionDecisionReason': 'touching files'}}))\n"
    )
    hooks = {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"command": f"{sys.executable} {decide}"}]}]
    }
    (workspace / ".claude").mkdir()
    (workspace / ".claude" / "settings.json").write_text(json.dumps({"hooks": hooks}))
    (workspace / "notes.txt").write_text("keep\n")
    llm.call("terminal", {"command": "rm notes.txt"})
    llm.call("terminal", {"command": "touch made.txt"})
    llm.reply("all done")
    repl = start(llm, workspace, "--no-codemap")
    try:
        repl.send("tidy up")
        repl.expect(
            r"✗ terminal rm notes\.txt\n\s+blocked by a PreToolUse hook; the call did not run: no rm here"
        )
        repl.expect(r"a PreToolUse hook asks before terminal runs \(touching files\)\. Run it\?")
        assert not (workspace / "made.txt").exists()  # asked before it runs
        repl.child.send("y")
        repl.expect("all done")
        repl.prompt()
    finally:
        repl.close()
    assert (workspace / "notes.txt").exists() and (workspace / "made.txt").exists()
    assert repl.text.index("no rm here") < repl.text.index("all done")  # at the call, not after
