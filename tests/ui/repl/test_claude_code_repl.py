"""Claude Code configuration in the real REPL, typed in a pseudo-terminal: a hook's
`permissionDecision: "ask"` asks at the keyboard, and a blocked call shows where it happened."""

from __future__ import annotations

import json
import re
import sys

from tests.helpers.repl_driver import start_repl, user_texts


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
    repl = start_repl(llm, workspace, "--no-codemap")
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


def git(workspace, *args: str) -> None:
    import subprocess

    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x", "GIT_COMMITTER_NAME": "t"}
    env |= {"GIT_COMMITTER_EMAIL": "t@x", "PATH": "/usr/bin:/bin", "HOME": str(workspace)}
    subprocess.run(["git", *args], cwd=workspace, check=True, capture_output=True, env=env)


def test_claude_codes_commit_command_runs_its_bang_lines_into_the_prompt(llm, workspace):
    from tests.conftest import ROOT

    fixtures = ROOT / "tests" / "fixtures" / "claude_code" / "commands"
    (workspace / ".claude" / "commands").mkdir(parents=True)
    for name in ("commit.md", "review-helpers.md"):  # commit.md wins over the built-in /commit
        (workspace / ".claude" / "commands" / name).write_text((fixtures / name).read_text())
    (workspace / "src" / "utils").mkdir(parents=True)
    (workspace / "src" / "utils" / "helpers.js").write_text("export const add = (a, b) => a + b;\n")
    git(workspace, "init", "-q", "-b", "trunk")
    git(workspace, "add", "src")
    git(workspace, "commit", "-qm", "first helper")
    (workspace / "src" / "utils" / "helpers.js").write_text("export const add = (a, b) => a - b;\n")
    llm.reply("committed")
    llm.reply("reviewed")
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.command("/commit", "committed")
        repl.command("/review-helpers", "reviewed")
    finally:
        repl.close()
    sent = "\n".join(user_texts(llm.requests[0].body))
    assert "- Current branch: trunk" in sent  # each !`cmd` replaced by its output
    assert "first helper" in sent and "-export const add = (a, b) => a + b;" in sent
    assert "!`git status`" not in sent and "modified:   src/utils/helpers.js" in sent
    review = "\n".join(user_texts(llm.requests[1].body))
    assert '<file path="src/utils/helpers.js">' in review and "a - b" in review  # @file


def test_s_on_an_edit_is_every_edit_and_shift_tab_cycles_the_modes(llm, workspace):
    for name in ("a.txt", "b.txt", "c.txt"):
        (workspace / name).write_text("old\n")
    edit = {"old_string": "old", "new_string": "new"}
    llm.call("edit_file", {"path": "a.txt", **edit})
    llm.call("edit_file", {"path": "b.txt", **edit})
    llm.reply("two done")
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.send("edit a and b")
        repl.expect(r"Edit a\.txt\?")
        repl.expect(r"\[s\] every edit this session")
        repl.child.send("s")
        repl.expect(r"→ yes, every edit this session")
        repl.expect("two done")  # b.txt was not asked
        repl.prompt()
        assert (workspace / "b.txt").read_text() == "new\n"
        assert "Edit b.txt?" not in repl.text
        repl.child.send("\x1b[Z")
        repl.expect(r"accept edits · unicum>")
        repl.child.send("\x1b[Z")
        repl.expect(r"plan ·")  # the prompt is redrawn in place: only what changed is sent
        repl.child.send("\x1b[Z")  # back to the default: /plan now turns plan mode on
        repl.command("/plan", "plan mode on: read-only tools")
    finally:
        repl.close()


def test_permissions_lists_adds_and_removes_rules_live_and_peers_commands_get_hints(
    llm, workspace, isolated_home
):
    (workspace / ".claude").mkdir()
    rules = {"permissions": {"allow": ["Bash(git diff:*)"]}}
    (workspace / ".claude" / "settings.json").write_text(json.dumps(rules))
    llm.call("terminal", {"command": "touch one.txt"})
    llm.reply("first")
    llm.call("terminal", {"command": "touch two.txt"})
    llm.reply("second")
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.command("/permissions", r"allow\s+Bash\(git diff:\*\)\s+\(.*\.claude/settings\.json\)")
        repl.command("/permissions deny Bash(touch:*)", r"deny Bash\(touch:\*\): saved in")
        repl.send("make one")
        repl.expect(r"✗ terminal touch one\.txt\n\s+blocked by a permission rule")
        repl.expect("first")
        repl.prompt()
        assert not (workspace / "one.txt").exists()
        saved = json.loads((isolated_home / "settings.json").read_text())
        assert saved["permissions"]["deny"] == ["Bash(touch:*)"]
        repl.command("/permissions remove Bash(touch:*)", r"removed Bash\(touch:\*\) from")
        repl.send("make two")
        repl.expect("second")
        repl.prompt()
        assert (workspace / "two.txt").exists()
        repl.command("/add notes.md", r"/add is Aider's command; here: mention the file as @path")
        repl.command("/status", r"/status is Claude Code's command; here: use /model")
    finally:
        repl.close()


def test_doctor_says_what_runs_and_what_to_fix(llm, workspace, isolated_home, monkeypatch):
    from tests.helpers.mcp_helpers import stdio_entry, write_servers

    monkeypatch.setenv("UNICUM_MCP_TIMEOUT", "60")  # a loaded machine starts it slowly
    write_servers(workspace / ".mcp.json", {"good": stdio_entry()})
    (isolated_home / "settings.json").write_text('{"enabledMcpjsonServers": ["good"]}')
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.send("/doctor")
        repl.expect(r"✓ model: ")
        repl.expect(r"sandbox: ")
        repl.expect(r"ripgrep: ")
        repl.expect(r"✓ MCP good: ready")
        repl.expect(r"✓ this folder: trusted")
        repl.expect(r"versions: Python 3\.")
        repl.prompt()
    finally:
        repl.close()


def test_mcp_restart_brings_a_crashed_server_back(llm, workspace, isolated_home, monkeypatch):
    from tests.helpers.mcp_helpers import stdio_entry, write_servers

    monkeypatch.setenv("UNICUM_MCP_TIMEOUT", "60")  # a loaded machine starts it slowly
    write_servers(workspace / ".mcp.json", {"srv": stdio_entry()})
    (isolated_home / "settings.json").write_text('{"enableAllProjectMcpServers": true}')
    llm.call("mcp__srv__crash", {})
    llm.reply("it crashed")
    llm.call("mcp__srv__echo", {"text": "back"})
    llm.reply("it answered")
    repl = start_repl(llm, workspace, "--no-codemap", "--allowedTools", "mcp__srv")
    try:
        repl.command("crash it", "it crashed")
        repl.command("/mcp restart srv", r"restarted srv: ready")
        repl.command("echo back", "it answered")
    finally:
        repl.close()
    last = json.dumps(llm.requests[-1].body)
    assert "echo: back (pid" in last


def test_the_status_line_built_in_and_claude_codes_statusline_command(
    llm, workspace, isolated_home
):
    from tests.conftest import ROOT

    git(workspace, "init", "-q", "-b", "feature-x")
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.command("/context", r"model window")  # the session is open now: the line shows
        repl.command("/help", r"/permissions")
        assert re.search(r"context \d+% · \$[\d.-]+ · default · feature-x", repl.text), repl.text[
            -800:
        ]
    finally:
        repl.close()
    script = ROOT / "tests" / "fixtures" / "claude_code" / "statusline" / "statusline.sh"
    settings = {"statusLine": {"type": "command", "command": str(script), "padding": 0}}
    (isolated_home / "settings.json").write_text(json.dumps(settings))
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.command("/context", r"model window")
        repl.command("/help", r"/permissions")
        assert re.search(r"\[claude-[^\]]+\] 📁 project", repl.text)  # its JSON on stdin
    finally:
        repl.close()
