"""One task end to end through the real CLI, real SDKs and the scripted server."""

from __future__ import annotations

import pytest

from tests.conftest import provider_env, run_cli

TASK = "create hello.py that prints hi, then run it"


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_task_writes_runs_and_answers(provider, llm, workspace):
    llm.call("write_file", {"path": "hello.py", "content": "print('hi')\n"})
    llm.call("terminal", {"command": "python hello.py"})
    llm.reply("Created hello.py; it prints hi.")

    proc = run_cli(
        "--dir", str(workspace), "-p", TASK, "--provider", provider, env=provider_env(llm, provider)
    )

    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "Created hello.py; it prints hi."
    assert (workspace / "hello.py").read_text() == "print('hi')\n"
    assert len(llm.requests) == 3
    first, second, third = (r.body for r in llm.requests)
    if provider == "openai":
        assert first["messages"][0] == {
            "role": "system",
            "content": first["messages"][0]["content"],
        }
        assert "Unicum" in first["messages"][0]["content"]
        assert {t["function"]["name"] for t in first["tools"]} >= {
            "read_file",
            "write_file",
            "terminal",
        }
        call_id = second["messages"][-2]["tool_calls"][0]["id"]
        tool_msg = second["messages"][-1]
        assert tool_msg["role"] == "tool" and tool_msg["tool_call_id"] == call_id
        assert "hello.py" in tool_msg["content"]
        run_result = third["messages"][-1]
        assert run_result["role"] == "tool" and "hi" in run_result["content"]
        assert "exit 0" in run_result["content"]
    else:
        assert "Unicum" in first["system"][0]["text"]
        assert {t["name"] for t in first["tools"]} >= {"read_file", "write_file", "terminal"}
        call = second["messages"][-2]["content"][-1]
        result = second["messages"][-1]["content"][0]
        assert call["type"] == "tool_use" and result["type"] == "tool_result"
        assert result["tool_use_id"] == call["id"]
        run_result = third["messages"][-1]["content"][0]
        assert "hi" in run_result["content"] and "exit 0" in run_result["content"]
    assert all(r.body.get("stream") for r in llm.requests)


def test_missing_key_is_one_line_exit_2(workspace):
    proc = run_cli("--dir", str(workspace), "-p", "hi")
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "OPENAI_API_KEY" in lines[0] and ".env" in lines[0]


def test_missing_key_for_named_provider(workspace):
    proc = run_cli("--dir", str(workspace), "-p", "hi", "--provider", "anthropic")
    assert proc.returncode == 2
    assert "ANTHROPIC_API_KEY" in proc.stderr and "Traceback" not in proc.stderr


def test_key_from_dotenv_in_home(llm, workspace, isolated_home):
    llm.reply("ok from dotenv")
    env = provider_env(llm, "openai")
    key_line = f"OPENAI_API_KEY={env.pop('OPENAI_API_KEY')}\n"
    (isolated_home / ".env").write_text(key_line)
    proc = run_cli("--dir", str(workspace), "-p", "hi", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok from dotenv"
    assert llm.requests[0].headers["authorization"] == "Bearer fake-test-key"


def test_help_imports_no_llm_sdk():
    import subprocess
    import sys

    from tests.conftest import ROOT

    code = (
        "import sys, runpy; sys.argv=['cli.py','--help']\n"
        "try:\n runpy.run_path('cli.py', run_name='__main__')\n"
        "except SystemExit: pass\n"
        "bad=[m for m in ('anthropic','openai','zhipuai','rich','prompt_toolkit') "
        "if m in sys.modules]\nprint('LOADED', bad)"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert "LOADED []" in proc.stdout, proc.stdout + proc.stderr
