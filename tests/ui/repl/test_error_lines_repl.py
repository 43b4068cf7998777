"""Errors are one line each, for the person and for the model, in the real CLI."""

from __future__ import annotations

from tests.conftest import provider_env, run_cli
from tests.helpers.mcp_helpers import free_port, tool_results
from tests.helpers.repl_driver import Repl


def test_a_refused_connection_is_called_refused_from_the_first_line(workspace):
    url = f"http://127.0.0.1:{free_port()}/v1"  # nothing listens there
    env = {"OPENAI_API_KEY": "fake-key", "OPENAI_BASE_URL": url}
    repl = Repl("--dir", str(workspace), "--provider", "openai", env=env, timeout=60)
    try:
        repl.prompt()
        repl.send("hi")
        repl.expect(r"the connection was refused: retry 1")
        repl.prompt()
    finally:
        repl.close()
    assert "dropped" not in repl.text


def test_raw_os_errors_reach_neither_the_model_nor_the_screen_as_tracebacks(llm, workspace):
    long_name = "n" * 300 + ".txt"  # longer than a file name may be: OSError, errno 36
    llm.call("write_file", {"path": long_name, "content": "x\n"})
    llm.reply("could not.")
    proc = run_cli(
        "--dir",
        str(workspace),
        "--provider",
        "openai",
        "--yes",
        "-p",
        "write it",
        env=provider_env(llm, "openai"),
    )
    assert proc.returncode == 0, proc.stderr
    (text,) = tool_results(llm.requests[-1].body)
    assert "\n" not in text and "Errno" not in text and "OSError" not in text, text
    assert text.startswith("write_file: nnnnn") and text.endswith("n.txt: file name too long")
    assert len(text) < 100, text


def test_a_web_search_offline_is_one_plain_line(llm, workspace):
    llm.call("web_search", {"query": "asyncio timeouts"})
    llm.reply("no web.")
    env = {**provider_env(llm, "openai"), "DDGS_PROXY": f"http://127.0.0.1:{free_port()}"}
    proc = run_cli("--dir", str(workspace), "--provider", "openai", "-p", "search", env=env)
    assert proc.returncode == 0, proc.stderr
    (text,) = tool_results(llm.requests[-1].body)
    assert text == (
        "web_search: offline or duckduckgo is unreachable (connection refused); "
        "continue without the web"
    )
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr, proc.stderr
