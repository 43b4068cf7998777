"""bench/tasks.py: the real-model task bench, run here against the scripted server through
Unicum's real CLI (mini-swe-agent's side needs its own environment and a real model)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from bench.task_proxy import wait_idle
from tests.bench.test_replay import bench_cli

EDIT = {
    "path": "price.py",
    "old_string": 'return "$%d" % amount',
    "new_string": 'return f"${amount:.2f}"',
}


def bench(llm, tmp_path, *extra: str):
    out = tmp_path / "rows.json"
    proc = bench_cli(
        "tasks.py", "--base-url", llm.openai_url, "--model", "local-model",
        "--tasks", "format-string", "--agents", "unicum:default", "--max-turns", "4",
        "--work", str(tmp_path / "runs"), "--json", str(out), *extra,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return proc, json.loads(out.read_text())


def test_a_fix_is_scored_solved_by_pytest_with_requests_counted(llm, tmp_path):
    llm.call("edit_file", EDIT).reply("Fixed: two decimals.")
    proc, [row] = bench(llm, tmp_path)
    assert row["solved"] and not row["tests_changed"]
    assert (row["requests"], row["stop"], row["turns"]) == (2, "done", 2)
    assert row["output_tokens"] > 0 and row["prompt_tokens"] > 0  # the replies' usage
    assert row["tools"] == len(llm.requests[0].body["tools"]) == 6  # the lean set
    assert "| format-string | unicum:default | yes | 2 |" in proc.stdout
    assert "| unicum:default | 1/1 | 2 |" in proc.stdout


def test_an_unfixed_task_is_not_solved_and_the_stop_is_the_agents(llm, tmp_path):
    llm.reply("I cannot fix this.")
    _, [row] = bench(llm, tmp_path)
    assert not row["solved"] and row["stop"] == "done" and row["requests"] == 1


def test_editing_the_test_does_not_pass_it(llm, tmp_path):
    cheat = {"path": "tests/test_price.py", "content": "def test_nothing():\n    pass\n"}
    llm.call("write_file", cheat).reply("The test passes now.")
    _, [row] = bench(llm, tmp_path)
    assert row["tests_changed"] and not row["solved"]


def test_the_context_policy_and_turn_cap_reach_the_cli(llm, tmp_path):
    for _ in range(2):
        llm.call("read_file", {"path": "price.py"})
    _, [row] = bench(llm, tmp_path, "--context-policy", "full", "--max-turns", "2")
    assert row["stop"] == "max_turns" and row["requests"] == 2
    argv = json.loads(
        (tmp_path / "runs" / "format-string--unicum-default" / "unicum.cmd.json").read_text()
    )
    assert argv[argv.index("--context-policy") + 1] == "full"
    assert argv[argv.index("--max-turns") + 1] == "2"


def test_the_reply_cap_reaches_unicum(llm, tmp_path):
    llm.reply("no")
    bench(llm, tmp_path, "--reply-cap", "900")
    assert llm.requests[0].body["max_tokens"] == 900


def test_unknown_task_or_agent_is_one_line(tmp_path):
    proc = bench_cli("tasks.py", "--tasks", "nope", "--work", str(tmp_path))
    assert proc.returncode != 0 and "unknown nope" in proc.stderr


def test_the_full_set_is_the_tool_set_setting(llm, tmp_path):
    llm.reply("no")
    _, [row] = bench(llm, tmp_path, "--agents", "unicum:full")
    assert row["agent"] == "unicum:full" and row["tools"] > 6
    assert {"memory", "task", "todo"} <= {
        t["function"]["name"] for t in llm.requests[0].body["tools"]
    }


def test_a_run_waits_until_the_server_works_on_no_request(tmp_path):
    """A request a timed-out run left generating is not charged to the next run."""
    answers = [True, True, False]  # /slots: busy twice, then idle
    asked: list[str] = []

    class Slots(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            return None

        def do_GET(self) -> None:  # noqa: N802
            asked.append(self.path)
            body = json.dumps([{"id": 0, "is_processing": answers.pop(0)}]).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Slots)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        wait_idle(f"http://127.0.0.1:{server.server_address[1]}/v1", step=0.01)
    finally:
        server.shutdown()
        server.server_close()
    assert asked == ["/slots"] * 3 and not answers
