"""Bash permission rules as Claude Code's permissions reference writes them, through the real
CLI `-p`: `Bash(ls *)` covers `ls` alone and `ls -la` but not `lsof`; rules match past the
wrappers it strips (`timeout 30 npm test`); a deny rule also matches past any leading
assignment or wrapper (`FOO=bar rm -rf tmp/`), an allow rule only past safe ones."""

from __future__ import annotations

import json

from tests.helpers.hook_helpers import run_p, tool_results


def rules(home, **kinds: list[str]) -> None:
    (home / "settings.json").write_text(json.dumps({"permissions": kinds}))


def test_a_deny_rule_holds_past_assignments_and_wrappers(llm, workspace, isolated_home):
    rules(isolated_home, deny=["Bash(rm *)"])
    (workspace / "notes.txt").write_text("keep\n")
    for command in ("FOO=bar rm notes.txt", "timeout 5 rm notes.txt", "sudo rm notes.txt"):
        llm.call("terminal", {"command": command})
    llm.reply("done")
    proc = run_p(llm, workspace, "go", "--permission-mode", "bypassPermissions")
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "notes.txt").exists()
    results = tool_results(llm.requests[-1].body)
    assert len(results) == 3 and all("Bash(rm *)" in r for r in results), results


def test_allow_rules_take_the_word_boundary_and_claude_codes_wrappers(
    llm, workspace, isolated_home
):
    rules(isolated_home, allow=["Bash(rm -r *)"])  # a recursive delete asks: a rule allows it
    for name in ("b", "c", "d"):
        (workspace / name).mkdir()
    commands = ("rm -r", "timeout 30 rm -r c", "FOO=1 rm -r b", "rm -rf d")
    for command in commands:
        llm.call("terminal", {"command": command})
    llm.reply("done")
    proc = run_p(llm, workspace, "go", "--sandbox", "off")  # -p asks nobody: refused unless allowed
    assert proc.returncode == 0, proc.stderr
    bare, wrapped, assigned, other = tool_results(llm.requests[-1].body)
    assert not bare.startswith("refused") and "missing operand" in bare  # the rule's command alone
    assert not wrapped.startswith("refused") and not (workspace / "c").exists()
    assert assigned.startswith("refused") and (workspace / "b").is_dir()
    assert other.startswith("refused") and (workspace / "d").is_dir()  # `rm -rf` is not `rm -r`
