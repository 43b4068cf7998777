"""Permission rules in Claude Code's syntax, from settings files (the fixture is Claude Code's
own settings example, unedited) and from the `--allowedTools` / `--disallowedTools` flags,
through the real CLI and a scripted model."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import provider_env, run_cli
from tests.helpers.hook_helpers import run_p, tool_results, use_settings
from tests.helpers.mcp_helpers import stdio_entry, write_servers


def permissions(folder: Path, **lists: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "settings.json").write_text(json.dumps({"permissions": lists}), encoding="utf-8")


def test_the_reference_settings_deny_reading_env_and_secrets(llm, workspace):
    use_settings(workspace, "permissions_settings.json")
    (workspace / ".env").write_text("TOKEN=fake-123\n")
    (workspace / "secrets").mkdir()
    (workspace / "secrets" / "db.txt").write_text("pw\n")
    (workspace / "app.py").write_text("ok = 1\n")
    llm.call("read_file", {"path": ".env"})
    llm.call("read_file", {"path": "secrets/db.txt"})
    llm.call("terminal", {"command": "curl -s http://127.0.0.1:9/"})
    llm.call("read_file", {"path": "app.py"})
    llm.reply("done")
    proc = run_p(llm, workspace, "go", "--permission-mode", "bypassPermissions")
    assert proc.returncode == 0, proc.stderr
    results = tool_results(llm.requests[4].body)
    for denied, rule in zip(
        results[:3], ["Read(./.env)", "Read(./secrets/**)", "Bash(curl:*)"], strict=True
    ):
        assert denied.startswith("blocked by a permission rule"), denied
        assert rule in denied and "settings.json" in denied  # the rule and its file
    assert "fake-123" not in json.dumps(llm.requests[4].body)
    assert "ok = 1" in results[3]  # nothing denies it: it runs
    assert proc.stderr.count("✗ blocked by a permission rule") == 3  # at each call


def test_a_project_rule_never_allows_what_the_users_file_denies(llm, workspace, tmp_path):
    permissions(tmp_path / "unicum-home", deny=["Bash(touch:*)"])
    permissions(workspace / ".claude", allow=["Bash(touch:*)", "Bash"])
    llm.call("terminal", {"command": "touch made.txt"})
    llm.reply("ok")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert not (workspace / "made.txt").exists()
    (result,) = tool_results(llm.requests[1].body)
    assert "Bash(touch:*)" in result and "unicum-home" in result


def test_an_untrusted_folders_rules_do_not_load(llm, workspace, isolated_home):
    (isolated_home / "trusted.json").write_text(json.dumps({"folders": []}))
    permissions(workspace / ".claude", deny=["Read"])
    (workspace / "a.txt").write_text("alpha\n")
    llm.call("read_file", {"path": "a.txt"})
    llm.reply("ok")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert "alpha" in tool_results(llm.requests[1].body)[0]


def test_allow_covers_a_compound_command_only_when_every_part_matches(llm, workspace):
    for name in ("one", "two"):
        (workspace / name).mkdir()
    permissions(workspace / ".unicum", allow=["Bash(rm -r one:*)", "Bash(rm -r two)"])
    llm.call("terminal", {"command": "rm -r one && rm -r two"})
    llm.call("terminal", {"command": "rm -r one; rm -r three"})
    llm.reply("ok")
    proc = run_p(llm, workspace, "go", "--sandbox", "off")
    assert proc.returncode == 0, proc.stderr
    assert not (workspace / "one").exists() and not (workspace / "two").exists()
    second = tool_results(llm.requests[2].body)[1]
    assert second.startswith("refused:")  # `rm -r three` is no rule's: -p refuses it


def test_ask_rules_ask_even_where_nothing_would(llm, workspace):
    permissions(workspace / ".claude", ask=["Write(notes/**)", "Edit(notes/**)"])
    llm.call("write_file", {"path": "notes/a.md", "content": "x"})
    llm.call("write_file", {"path": "b.md", "content": "y"})
    llm.reply("ok")
    proc = run_p(llm, workspace, "go", "--permission-mode", "yolo")
    assert proc.returncode == 0, proc.stderr
    assert not (workspace / "notes" / "a.md").exists() and (workspace / "b.md").exists()


def test_default_mode_from_settings_and_a_projects_bypass_is_refused(llm, workspace, tmp_path):
    settings = {"permissions": {"defaultMode": "acceptEdits"}}
    (tmp_path / "unicum-home" / "settings.json").write_text(json.dumps(settings))
    (workspace / ".claude").mkdir()
    bypass = {"permissions": {"defaultMode": "bypassPermissions"}}
    (workspace / ".claude" / "settings.json").write_text(json.dumps(bypass))
    llm.reply("ok")
    proc = run_p(llm, workspace, "hi", "--output-format", "stream-json")
    assert proc.returncode == 0, proc.stderr
    init = json.loads(proc.stdout.splitlines()[0])
    assert init["permissionMode"] == "acceptEdits"
    assert "defaultMode bypassPermissions is taken only from your own settings" in proc.stderr


def test_allowed_tools_flag_never_narrows_the_tools_offered(llm, workspace):
    write_servers(workspace / ".mcp.json", {"srv": stdio_entry()})
    llm.call("mcp__srv__echo", {"text": "hi"})
    llm.reply("ok")
    proc = run_p(llm, workspace, "go", "--trust-project", "--allowedTools", "mcp__srv")
    assert proc.returncode == 0, proc.stderr
    offered = {t["function"]["name"] for t in llm.requests[0].body["tools"]}
    assert {"read_file", "terminal", "edit_file", "mcp__srv__echo"} <= offered
    (result,) = tool_results(llm.requests[1].body)
    assert result.startswith("echo: hi")  # allowed: an MCP call -p would refuse runs


def test_disallowed_tools_removes_names_and_denies_rules(llm, workspace):
    (workspace / "keep.txt").write_text("k\n")
    llm.call("terminal", {"command": "rm keep.txt"})
    llm.reply("ok")
    proc = run_p(
        llm,
        workspace,
        "go",
        "--disallowedTools",
        "Write",
        "Bash(rm:*)",
        "--permission-mode",
        "bypassPermissions",
    )
    assert proc.returncode == 0, proc.stderr
    offered = {t["function"]["name"] for t in llm.requests[0].body["tools"]}
    assert "write_file" not in offered and "terminal" in offered
    assert (workspace / "keep.txt").exists()
    assert "Bash(rm:*) (--disallowedTools)" in tool_results(llm.requests[1].body)[0]


def test_tools_flag_takes_claude_codes_names(llm, workspace):
    llm.reply("ok")
    proc = run_p(llm, workspace, "go", "--tools", "Bash,Read")
    assert proc.returncode == 0, proc.stderr
    offered = sorted(t["function"]["name"] for t in llm.requests[0].body["tools"])
    assert offered == ["read_file", "terminal"]


def test_a_typo_in_a_rule_flag_is_one_clear_error(llm, workspace):
    proc = run_cli(
        "--dir", str(workspace), "-p", "hi", "--provider", "openai",
        "--allowedTools", "Bsh(git:*)", env=provider_env(llm, "openai"),
    )  # fmt: skip
    assert proc.returncode == 2
    assert "--allowedTools: unknown tool 'Bsh' (did you mean Bash?)" in proc.stderr


def test_additional_directories_in_settings_work_like_add_dir(llm, workspace, tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir()
    permissions(workspace / ".claude", additionalDirectories=[str(shared)])
    llm.call("write_file", {"path": str(shared / "n.txt"), "content": "made\n"})
    llm.reply("ok")
    proc = run_p(llm, workspace)
    assert proc.returncode == 0, proc.stderr
    assert (shared / "n.txt").read_text() == "made\n"  # -p would refuse it otherwise
