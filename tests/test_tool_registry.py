"""The registry's contract with the model, clarify, and the tools end to end through the CLI."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.conftest import ROOT, provider_env, run_cli
from tests.tool_helpers import REGISTRY, ScriptedUser, make_ctx, run

EXPECTED = {
    "read_file",
    "write_file",
    "edit_file",
    "search_files",
    "list_files",
    "terminal",
    "web_search",
    "web_read",
    "clarify",
}


def test_every_tool_is_discovered_with_a_short_description():
    specs = REGISTRY.specs()
    assert {s["name"] for s in specs} >= EXPECTED
    for spec in specs:
        assert len(spec["description"]) < 200, spec["name"]
        assert spec["parameters"]["type"] == "object"
        assert len(json.dumps(spec)) < 700, spec["name"]  # sent on every request
    assert len(json.dumps(specs)) < 450 * len(specs)


def test_the_wire_schemas_leave_out_what_only_the_registry_checks(workspace, isolated_home):
    specs = {s["name"]: s["parameters"] for s in REGISTRY.specs()}
    text = json.dumps(specs)
    assert "additionalProperties" not in text and '"minimum": 1' not in text
    assert "required" not in specs["recall"] and specs["read_file"]["required"] == ["path"]
    ctx = make_ctx(workspace, isolated_home)  # the registry still enforces them
    assert "unknown argument 'file'" in run(ctx, "read_file", path="a", file="b").content
    assert "must be at least 1" in run(ctx, "read_file", path="a", limit=0).content


def test_discovery_imports_no_sdk_or_extractor():
    code = (
        "import sys; from tools.registry import Registry; Registry.default(); "
        "print([m for m in ('trafilatura', 'zhipuai', 'ddgs', 'tavily', 'urllib.request') "
        "if m in sys.modules])"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert proc.stdout.strip() == "[]", proc.stderr


def test_bad_calls_come_back_as_errors(workspace, isolated_home):
    ctx = make_ctx(workspace, isolated_home)
    assert "unknown tool 'rm_everything'" in REGISTRY.execute("rm_everything", {}, ctx).content
    assert "not valid JSON" in REGISTRY.execute("read_file", '{"path": ', ctx).content
    assert "missing required argument 'path'" in run(ctx, "read_file").content
    assert "unknown argument 'file'" in run(ctx, "read_file", path="a", file="b").content
    assert "must be integer" in run(ctx, "read_file", path="a", limit="many").content
    assert "choices[]" in run(ctx, "clarify", question="q", choices=[1, 2]).content


def test_numbers_and_booleans_sent_as_strings_are_accepted(workspace, isolated_home):
    (workspace / "a.txt").write_text("1\n2\n3\n")
    ctx = make_ctx(workspace, isolated_home)
    out = REGISTRY.execute("read_file", {"path": "a.txt", "offset": "2", "limit": "1"}, ctx)
    assert out.content.startswith("     2\t2")
    app = REGISTRY.execute("write_file", {"path": "a.txt", "content": "4\n", "append": "true"}, ctx)
    assert app.content.startswith("appended")


def test_clarify_without_a_user(workspace, isolated_home):
    out = run(
        make_ctx(workspace, isolated_home),
        "clarify",
        question="Which DB?",
        choices=["sqlite", "postgres"],
    )
    assert not out.is_error and "No user is present" in out.content
    assert "own judgment" in out.content and out.data["answer"] is None


def test_clarify_asks_the_user(workspace, isolated_home):
    user = ScriptedUser("postgres")
    out = run(
        make_ctx(workspace, isolated_home, prompter=user),
        "clarify",
        question="Which DB?",
        choices=["sqlite", "postgres"],
    )
    assert out.content == "The user answered: postgres" and user.questions == ["Which DB?"]


def _tool_result(request_body: dict) -> str:
    return request_body["messages"][-1]["content"]


def test_print_mode_refuses_destructive_command_and_tells_the_model(llm, workspace):
    (workspace / "src").mkdir()
    llm.call("terminal", {"command": "ls && rm -rf ."})  # the project itself: asked sandboxed too
    llm.call("write_file", {"path": "../outside.txt", "content": "x"})
    llm.reply("I could not do it.")
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "clean up",
        "--provider",
        "openai",
        env=provider_env(llm, "openai"),
    )
    assert proc.returncode == 0, proc.stderr
    assert (workspace / "src").is_dir()
    first = _tool_result(llm.requests[1].body)
    assert "refused" in first and "rm -r of the workspace" in first and "--yes" in first
    second = _tool_result(llm.requests[2].body)
    assert "outside the workspace" in second
    assert not (workspace.parent / "outside.txt").exists()


def test_print_mode_with_yes_approves(llm, workspace):
    (workspace / "src").mkdir()
    llm.call("terminal", {"command": "ls && rm -rf src"})
    llm.reply("Removed.")
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "clean up",
        "--yes",
        "--provider",
        "openai",
        env=provider_env(llm, "openai"),
    )
    assert proc.returncode == 0, proc.stderr
    assert not (workspace / "src").exists()
    assert "exit 0" in _tool_result(llm.requests[1].body)
