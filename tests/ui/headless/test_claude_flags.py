"""Claude Code's flags with the meanings scripts rely on, through the real CLI `-p`:
`--mcp-config` / `--strict-mcp-config`, `--add-dir` (the sandbox too) and
`--permission-mode` in Claude Code's names."""

from __future__ import annotations

import json

import pytest

from tests.helpers.hook_helpers import run_p, tool_results
from tests.helpers.mcp_helpers import stdio_entry, write_servers
from tests.tools.test_sandbox import needs_bwrap


def offered(llm) -> set[str]:
    return {t["function"]["name"] for t in llm.requests[0].body["tools"]}


def test_mcp_config_adds_servers_and_strict_keeps_only_them(llm, workspace, tmp_path):
    write_servers(workspace / ".mcp.json", {"proj": stdio_entry()})
    extra = tmp_path / "ci-mcp.json"
    write_servers(extra, {"ci": stdio_entry()})
    llm.reply("ok")
    proc = run_p(llm, workspace, "go", "--mcp-config", str(extra), "--trust-project")
    assert proc.returncode == 0, proc.stderr
    assert {"mcp__proj__echo", "mcp__ci__echo"} <= offered(llm)
    llm.requests.clear()
    llm.reply("ok")
    text = json.dumps({"mcpServers": {"inline": stdio_entry()}})
    proc = run_p(llm, workspace, "go", "--mcp-config", str(extra), text, "--strict-mcp-config")
    assert proc.returncode == 0, proc.stderr
    names = {n for n in offered(llm) if n.startswith("mcp__")}
    assert {n.split("__")[1] for n in names} == {"ci", "inline"}


def test_a_missing_mcp_config_file_is_one_line(llm, workspace):
    llm.reply("ok")
    proc = run_p(llm, workspace, "go", "--mcp-config", "nope.json")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("--mcp-config nope.json: no such file") == 1


@needs_bwrap
def test_add_dir_is_another_writable_root_in_the_sandbox_too(llm, workspace, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    (shared / "lib.txt").write_text("library\n")
    llm.call("read_file", {"path": str(shared / "lib.txt")})
    llm.call("write_file", {"path": str(shared / "new.txt"), "content": "made\n"})
    llm.call("terminal", {"command": f"echo from-shell > {shared / 'shell.txt'}"})
    llm.reply("done")
    proc = run_p(llm, workspace, "go", "--add-dir", str(shared), "--sandbox", "workspace-write")
    assert proc.returncode == 0, proc.stderr
    results = tool_results(llm.requests[3].body)
    assert "library" in results[0]
    assert (shared / "new.txt").read_text() == "made\n"
    assert (shared / "shell.txt").read_text() == "from-shell\n"  # bound writable in bwrap


def test_without_add_dir_the_same_calls_are_refused(llm, workspace, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    llm.call("write_file", {"path": str(shared / "new.txt"), "content": "made\n"})
    llm.reply("done")
    proc = run_p(llm, workspace, "go")
    assert proc.returncode == 0, proc.stderr
    assert not (shared / "new.txt").exists()


def test_add_dir_that_is_not_a_folder_is_exit_2(llm, workspace, tmp_path):
    proc = run_p(llm, workspace, "go", "--add-dir", str(tmp_path / "missing"))
    assert proc.returncode == 2 and "--add-dir" in proc.stderr and "not a folder" in proc.stderr


@pytest.mark.parametrize(
    ("flag", "mode"),
    [("default", "default"), ("acceptEdits", "acceptEdits"), ("plan", "plan"),
     ("bypassPermissions", "bypassPermissions"), ("auto-edit", "acceptEdits"),
     ("manual", "default"), ("dontAsk", "default")],
)  # fmt: skip
def test_permission_mode_takes_claude_codes_names(llm, workspace, flag, mode):
    llm.reply("ok")
    proc = run_p(llm, workspace, "hi", "--permission-mode", flag, "--output-format", "stream-json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[0])["permissionMode"] == mode


def test_dangerously_skip_permissions_is_bypass_but_deny_rules_hold(llm, workspace):
    (workspace / "keep.txt").write_text("k\n")
    llm.call("terminal", {"command": "rm keep.txt"})
    llm.reply("ok")
    proc = run_p(
        llm, workspace, "go", "--dangerously-skip-permissions", "--disallowedTools", "Bash(rm:*)",
        "--output-format", "stream-json",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.splitlines()[0])["permissionMode"] == "bypassPermissions"
    assert (workspace / "keep.txt").exists()


def test_dont_ask_runs_only_what_is_allowed_as_in_claude_codes_ci_example(llm, workspace):
    # permission-modes.md: `claude -p … --permission-mode dontAsk --allowedTools "Bash(…)" "Read"`
    for name in ("built", "other"):
        (workspace / name).mkdir()
    llm.call("terminal", {"command": "rm -r built"})
    llm.call("terminal", {"command": "rm -r other"})
    llm.reply("ok")
    proc = run_p(
        llm, workspace, "go", "--permission-mode", "dontAsk", "--sandbox", "off",
        "--allowedTools", "Bash(rm -r built)", "Read",
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    allowed, other = tool_results(llm.requests[-1].body)
    assert not (workspace / "built").exists() and not allowed.startswith("refused")
    assert other.startswith("refused") and (workspace / "other").is_dir()
