"""The registry's contract with the model, clarify, and the tools end to end through the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace

from core.agent.session.toolset import ToolAsk, choose_tools
from my_agent.tokens import estimate_tokens
from tests.conftest import ROOT, provider_env, run_cli
from tests.helpers.tool_helpers import REGISTRY, ScriptedUser, make_ctx, run
from tools.base import Tool, params
from tools.registry import Registry
from tools.services import ToolServices
from tools.todo import TodoList

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
    for tool in REGISTRY.tools.values():
        assert len(tool.description) < 200, tool.name
    for spec in specs:
        assert spec["parameters"]["type"] == "object"
        assert len(json.dumps(spec)) < 500, spec["name"]  # sent on every request
    assert len(json.dumps(specs)) < 330 * len(specs)


def test_the_json_schemas_leave_out_what_only_the_registry_checks(workspace, isolated_home):
    local = Registry(list(REGISTRY.tools.values()), brief=False)
    specs = {s["name"]: s["parameters"] for s in local.specs()}
    text = json.dumps(specs)
    assert "additionalProperties" not in text and '"minimum": 1' not in text
    assert "required" not in specs["recall"] and specs["read_file"]["required"] == ["path"]
    ctx = make_ctx(workspace, isolated_home)  # the registry still enforces them
    assert "unknown argument 'file'" in run(ctx, "read_file", path="a", file="b").content
    assert "must be at least 1" in run(ctx, "read_file", path="a", limit=0).content


def _split(line: str) -> list[str]:
    """Top-level `, `-separated parts of a signature (not inside brackets or notes)."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(line):
        depth += ch in "([{"
        depth -= ch in ")]}"
        if line.startswith(", ", i) and depth == 0:
            parts.append(line[start:i])
            start = i + 2
    return [*parts, line[start:]] if line else parts


def _parsed(spec: dict) -> dict[str, tuple[bool, str]]:
    """name -> (required, type) read back from a brief spec's `Args:` line."""
    line = spec["description"].split(" Args: ", 1)[1].removesuffix(".")
    out = {}
    for part in _split(line):
        name, value = part.split(": ", 1)
        value = value.split(" (", 1)[0] if not value.startswith("[{") else value
        out[name.removesuffix("?")] = (not name.endswith("?"), value)
    return out


def _said(spec: dict) -> str:
    kind = spec.get("type")
    if "enum" in spec:
        return "|".join(spec["enum"])
    if kind == "array":
        item = spec["items"]
        if item.get("type") == "object":
            inner = ", ".join(
                f"{n}{'' if n in item.get('required', []) else '?'}: {_said(s)}"
                for n, s in item["properties"].items()
            )
            return f"[{{{inner}}}]"
        return f"[{_said(item)}]"
    return {"string": "str", "integer": "int", "number": "num", "boolean": "bool"}[kind]


def test_the_brief_wire_form_says_exactly_what_the_registry_enforces(workspace, isolated_home):
    brief = {s["name"]: s for s in REGISTRY.specs()}
    local = Registry(list(REGISTRY.tools.values()), brief=False).specs()
    tokens = estimate_tokens(json.dumps(list(brief.values())))
    assert tokens < 0.7 * estimate_tokens(json.dumps(local))  # the fixed prompt's bulk
    for tool in REGISTRY.tools.values():
        spec = brief[tool.name]
        assert spec["parameters"] == {"type": "object"}, tool.name
        said = _parsed(spec) if tool.parameters["properties"] else {}
        expected = {
            name: (name in tool.parameters.get("required", []), _said(s))
            for name, s in tool.parameters["properties"].items()
        }
        assert said == expected, tool.name
    ctx = make_ctx(workspace, isolated_home)  # a wrong call says the line again
    out = run(ctx, "edit_file", path="a.py", old="x", new="y").content
    assert "unknown argument 'old'" in out
    assert "expected edit_file(path: str, old_string?: str, new_string?: str" in out


UNSAYABLE = {
    "nested": {"type": "object", "properties": {"spec": {"anyOf": [{"type": "string"}]}}},
    "deep": params(where=params(at=params(x={"type": "string"}))),
    "nullable": {"type": "object", "properties": {"a": {"type": ["string", "null"]}}},
    "no_choice": params(a={"type": "string", "enum": []}),
    "blurred": params(a={"type": "string", "enum": ["x, y: z", "w"]}),
    "typed_enum": params(a={"type": "integer", "enum": [1, 2]}),
    "item_note": params(a={"type": "array", "items": {"type": "string", "description": "an id"}}),
    "odd_minimum": params(a={"type": "string", "minimum": 1}),
    "open_object": {"type": "object", "properties": {}, "additionalProperties": {"type": "string"}},
    "missing": {"type": "object", "properties": {"o": params(["gone"], x={"type": "string"})}},
    "boolean_sub": {"type": "object", "properties": {"any": True, "never": False}},
    "null_parts": {"type": "object", "properties": None, "required": None},
}


def test_schemas_the_line_cannot_say_go_as_json(workspace, isolated_home):
    plain_tool = Tool("flat", "Flat.", params(["a"], a={"type": "string"}), lambda c, a: "")
    tools = [plain_tool, replace(plain_tool, name="theirs", brief=False)]  # an MCP server's
    tools += [replace(plain_tool, name=name, parameters=p) for name, p in UNSAYABLE.items()]
    specs = {s["name"]: s for s in Registry(tools).specs()}
    assert specs["flat"]["description"] == "Flat. Args: a: str."
    for name in ("theirs", *UNSAYABLE):
        assert specs[name]["description"] == "Flat.", name
        assert specs[name]["parameters"] != {"type": "object"}, name
    assert len(Registry(tools, brief=False).specs()) == len(tools)  # never raises
    ctx = make_ctx(workspace, isolated_home)
    out = Registry(tools).execute("deep", {"where": 3}, ctx)  # the error has no line to repeat
    assert out.content == "deep: argument 'where' must be object, got int"
    assert not Registry(tools).execute("boolean_sub", {"any": [1]}, ctx).is_error
    never = Registry(tools).execute("boolean_sub", {"never": 1}, ctx)
    assert never.content == "boolean_sub: argument 'never' is not allowed"
    assert not Registry(tools).execute("null_parts", {"x": "1"}, ctx).is_error


def test_a_local_server_gets_json_schemas_and_a_cloud_model_the_brief_form():
    for provider, brief in (("ollama", False), ("openai-compatible", False), ("zhipu", True)):
        chosen = choose_tools(REGISTRY, ToolAsk(None, provider, False, 200_000, True)).registry
        spec = {s["name"]: s for s in chosen.specs()}["read_file"]
        assert ("properties" not in spec["parameters"]) is brief, provider
        asked = ToolAsk(["read_file"], provider, False, 200_000, True)
        assert choose_tools(REGISTRY, asked).registry.brief is brief


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


def test_a_list_sent_as_its_json_text_is_accepted(workspace, isolated_home):
    ctx = replace(make_ctx(workspace, isolated_home), services=ToolServices(todos=TodoList()))
    todos = '[{"content": "写测试", "status": "in_progress"}]'
    out = REGISTRY.execute("todo", {"todos": todos}, ctx)
    assert not out.is_error and "写测试" in out.content
    bad = REGISTRY.execute("todo", {"todos": "[not json"}, ctx)
    assert bad.is_error and "must be array" in bad.content and "expected todo(todos:" in bad.content


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
