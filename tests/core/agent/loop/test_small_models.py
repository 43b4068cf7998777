"""Small-model ergonomics: a tool set that fits the session, refusals naming the allowed
alternative; through the real CLI and the scripted server."""

from __future__ import annotations

from tests.conftest import provider_env, run_cli
from ui.words.strings import Strings


def offered(llm) -> set[str]:
    return {t["function"]["name"] for t in llm.requests[0].body.get("tools", [])}


def run(llm, workspace, provider: str, *extra: str):
    return run_cli(
        "--dir", str(workspace), "-p", "hi", "--provider", provider, *extra,
        env=provider_env(llm, provider),
    )  # fmt: skip


def test_a_local_server_gets_no_web_and_no_clarify_in_print_mode(llm, workspace):
    llm.reply("ok")
    assert run(llm, workspace, "openai-compatible").returncode == 0
    tools = offered(llm)
    assert {"read_file", "write_file", "terminal"} <= tools
    assert not tools & {"web_search", "web_read", "clarify"}


def test_a_cloud_provider_keeps_the_web_and_no_clarify_in_print_mode(llm, workspace):
    llm.reply("ok")
    assert run(llm, workspace, "openai").returncode == 0
    assert {"web_search", "web_read"} <= offered(llm)
    assert "clarify" not in offered(llm)


def test_tools_flag_chooses_the_tools(llm, workspace):
    llm.reply("ok")
    assert (
        run(llm, workspace, "openai-compatible", "--tools", "read_file,edit_file").returncode == 0
    )
    assert offered(llm) == {"read_file", "edit_file"}


def test_tools_flag_all_and_unknown(llm, workspace):
    llm.reply("ok")
    assert run(llm, workspace, "ollama", "--tools", "all").returncode == 0
    assert "web_search" in offered(llm)
    bad = run(llm, workspace, "ollama", "--tools", "read_file,create_file")
    assert bad.returncode == 2 and "no tool named create_file" in bad.stderr


def test_a_refused_write_outside_names_the_in_project_path(llm, workspace, tmp_path):
    outside = tmp_path / "elsewhere" / workspace.name / "src" / "calc.py"
    llm.call("write_file", {"path": str(outside), "content": "x = 1\n"})
    llm.reply("ok")
    assert run(llm, workspace, "openai").returncode == 0
    [result] = [m["content"] for m in llm.requests[1].body["messages"] if m["role"] == "tool"]
    assert result.startswith("refused:") and not outside.exists()
    assert result.endswith('To write inside the project, use the relative path "src/calc.py".')
    assert Strings("zh").line(result).endswith('要写在项目里，请用相对路径 "src/calc.py"。')


def test_the_spinner_ticks_seconds_and_tokens_and_says_how_to_stop():
    import time

    from ui.views.render import Waiting

    waiting = Waiting(Strings("en"), 3420, started=time.monotonic() - 12.4)
    assert waiting.text() == "thinking… 12s · 3,420 tokens so far · Ctrl-C to stop"
    assert Waiting(Strings("zh"), 0).text() == "思考中… 0 秒 · 已用 0 令牌 · Ctrl-C 停止"
    assert str(waiting.__rich__()) == waiting.text()  # what rich shows at each refresh


def system_text(request) -> str:
    return request.body["messages"][0]["content"]


def test_the_lean_set_gets_the_small_model_prompt_and_the_project_files(llm, workspace):
    (workspace / "tests").mkdir()
    (workspace / "tests" / "test_a.py").write_text("from a import x\n")
    (workspace / "a.py").write_text("x = 1\n")
    llm.reply("ok").reply("ok")
    assert run(llm, workspace, "openai-compatible").returncode == 0
    lean = system_text(llm.requests[0])
    assert "the user does not edit files or run commands for you" in lean
    assert "## Files\na.py\ntests/test_a.py" in lean
    assert "code_map" not in lean  # not offered in the lean set
    assert run(llm, workspace, "openai").returncode == 0
    full = system_text(llm.requests[1])
    assert "## Files" not in full and "code_map" in full


def test_a_big_project_lists_its_first_files_and_points_at_list_files(llm, workspace):
    for i in range(45):
        (workspace / f"m{i:02}.py").write_text("")
    llm.reply("ok")
    assert run(llm, workspace, "openai-compatible").returncode == 0
    files = system_text(llm.requests[0]).split("## Files\n")[1].splitlines()
    assert files[0] == "m00.py" and files[39] == "m39.py"
    assert files[40] == "… more files: list_files shows them (first 40 listed)"
