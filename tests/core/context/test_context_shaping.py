"""Known programs' output shaped at its first showing, the whole archived: test runs keep their
failures and summary, installs their last lines; a very large output keeps head, tail and the
lines matching the task, unless it reads like a specification."""

from __future__ import annotations

from core.context import Archive, CacheAwareContext, ContextBudget
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, user_text
from tools.base import ToolOutput

TASK = "make test_totals pass in report_totals.py"


def _first(command: str, out: ToolOutput, task: str = TASK) -> tuple[str, CacheAwareContext]:
    policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000))
    history = [user_text(task)]
    policy.messages_for_request(history)
    call = ToolCall("c1", "terminal", {"command": command})
    history.append(Message("assistant", [call]))
    policy.on_tool_result(call, out)
    history.append(Message("user", [ToolResult("c1", out.content, out.is_error)]))
    request = policy.messages_for_request(history)
    return next(b.content for m in request for b in m.tool_results), policy


def test_a_test_run_shows_its_failures_and_summary_first():
    rows = [f"tests/test_{i}.py::test_case_{i} PASSED" for i in range(120)]
    rows[60] = "tests/test_60.py::test_totals FAILED"
    rows += ["E   assert 3 == 4", "=== 1 failed, 119 passed in 2.1s ==="]
    out = ToolOutput("\n".join(rows), True)
    shown, policy = _first("python -m pytest -v", out)
    assert "test_totals FAILED" in shown and "E   assert 3 == 4" in shown
    assert "1 failed, 119 passed" in shown and "test_case_7 PASSED" not in shown
    assert len(shown) < len(out.content) / 5
    assert policy.archive.get("a1").text == out.content  # the whole, for recall


def test_an_install_shows_its_last_lines():
    rows = [
        f"Collecting package_{i}\n  Downloading package_{i}-1.0.tar.gz (12 kB)" for i in range(80)
    ]
    out = ToolOutput("\n".join([*rows, "Successfully installed package_0-1.0 package_1-1.0"]))
    shown, _ = _first("pip install -r requirements.txt", out)
    assert shown.endswith("Successfully installed package_0-1.0 package_1-1.0")
    assert "package_40" not in shown and len(shown) < len(out.content) / 5


def test_a_very_large_output_keeps_head_tail_and_what_the_task_names():
    rows = [f"{i:05d} record {i} processed by worker {i % 13} ok" for i in range(1500)]
    rows[700] = "00700 record 700: report_totals mismatch in test_totals"
    out = ToolOutput("\n".join(rows))
    shown, _ = _first("./process_all", out)
    assert rows[0] in shown and rows[-1] in shown and rows[700] in shown
    assert rows[400] not in shown and len(shown) < len(out.content) / 5
    prose = " ".join(["The report must add every invoice total and round only at the end."] * 2)
    spec = "\n".join(f"- Rule {i}: {prose}" for i in range(200))
    shown, _ = _first("issues show 7", ToolOutput(spec))
    assert shown == spec  # reads like a specification: whole


def test_whole_reads_keeps_a_large_file_read_whole_up_to_its_size():
    """The frontier's whole-reads setting: a file the model asked to read is not cut by the size
    rule up to `whole_reads` tokens; a program's output of the same size still is."""
    source = "\n".join(
        f"def handler_{i}(request):\n    return page_{i}(request)" for i in range(500)
    )
    for budget, whole in (({}, False), ({"whole_reads": 12_000}, True)):
        policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000, **budget))
        history = [user_text(TASK)]
        for cid, call in (
            ("r1", ToolCall("r1", "read_file", {"path": "app/views.py"})),
            ("t1", ToolCall("t1", "terminal", {"command": "./dump_all"})),
        ):
            history.append(Message("assistant", [call]))
            policy.on_tool_result(call, ToolOutput(source))
            history.append(Message("user", [ToolResult(cid, source)]))
        request = policy.messages_for_request(history)
        shown = {b.call_id: b.content for m in request for b in m.tool_results}
        assert (shown["r1"] == source) is whole
        assert shown["t1"] != source  # not a read: the size rule applies


def test_a_large_read_keeps_the_lines_naming_what_the_model_just_said():
    """The size rule on a file read also keeps, in its middle, the lines naming identifiers
    of the model's latest words (its notes, its call's arguments), not only the task's."""
    source = "\n".join(
        f"def handler_{i}(request):\n    return page_{i}(request)" for i in range(600)
    )
    policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000))
    history = [user_text(TASK)]
    look = ToolCall("g1", "terminal", {"command": "grep -n page_ app/views.py | wc -l"})
    history.append(Message("assistant", [TextBlock("handler_311 builds the totals"), look]))
    policy.on_tool_result(look, ToolOutput("1200"))
    history.append(Message("user", [ToolResult("g1", "1200")]))
    policy.messages_for_request(history)
    read = ToolCall("r1", "read_file", {"path": "app/views.py", "symbol": "page_457"})
    history.append(Message("assistant", [read]))
    policy.on_tool_result(read, ToolOutput(source))
    history.append(Message("user", [ToolResult("r1", source)]))
    request = policy.messages_for_request(history)
    shown = next(b.content for m in request for b in m.tool_results if b.call_id == "r1")
    assert "recall" in shown and "def handler_200(request):" not in shown  # the size rule cut
    assert "def handler_311(request):" in shown  # named in the model's note before
    assert "    return page_457(request)" in shown  # named in the call's arguments
