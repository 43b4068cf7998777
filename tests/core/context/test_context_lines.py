"""Line-level selection: after its first showing an output keeps the lines later steps use (errors,
locations, summaries, identifiers the model has used since) and points at the rest with the
lines `recall` returns; decided once; a specification-like output stays whole."""

from __future__ import annotations

import re

from core.context import Archive, CacheAwareContext, ContextBudget
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, user_text
from tests.helpers.wire_checks import anthropic_problems, openai_problems
from tools.base import ToolContext, ToolOutput
from tools.recall import recall

TASK = "make tests/test_report.py pass"
POINTER = re.compile(r"\[… (\d+) lines: recall (a\d+) lines=(\d+)-(\d+)\]")


def _policy(**budget) -> CacheAwareContext:
    return CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000, **budget))


def _turn(policy, history, cid: str, command: str, out: ToolOutput, note: str = "") -> None:
    call = ToolCall(cid, "terminal", {"command": command})
    history.append(Message("assistant", [TextBlock(note)] * bool(note) + [call]))
    policy.on_tool_result(call, out)
    history.append(Message("user", [ToolResult(cid, out.content, out.is_error)]))


def _shown(request: list[Message], call_id: str) -> str:
    return next(b.content for m in request for b in m.tool_results if b.call_id == call_id)


def _log(n: int = 120) -> str:
    rows = [f"step {i}: worker_{i} handled batch_{i} in {i % 7} ms" for i in range(n)]
    rows[40] = "src/report.py:88: RuntimeWarning: total_amount rounded"
    return "\n".join(
        [*rows, "Traceback (most recent call last):", "ValueError: bad row", "[exit 1]"]
    )


def test_an_output_keeps_the_lines_later_steps_use_and_points_at_the_rest(tmp_path):
    policy, history = _policy(), [user_text(TASK)]
    log = ToolOutput(_log(), True)
    _turn(policy, history, "c1", "python run_report.py", log)
    assert _shown(policy.messages_for_request(history), "c1") == log.content  # whole once
    _turn(policy, history, "c2", "grep -n worker_77 src/*.py", ToolOutput("src/a.py:3: x"))
    shown = _shown(policy.messages_for_request(history), "c1")
    assert len(shown) < len(log.content) / 3
    for kept in ("step 0:", "RuntimeWarning: total_amount", "worker_77 handled", "ValueError"):
        assert kept in shown, kept
    assert "worker_76 handled" not in shown
    # every pointer names the lines `recall` gives back, numbered as in the archive
    pointers = POINTER.findall(shown)
    assert (
        pointers
        and sum(int(n) for n, *_ in pointers) + shown.count("\n") + 1 - len(pointers)
        == log.content.count("\n") + 1
    )
    count, entry, low, high = pointers[0]
    ctx = ToolContext(workspace=tmp_path, home=tmp_path)
    ctx.services.archive = policy.archive
    back = recall(ctx, {"id": entry, "lines": f"{low}-{high}"}).content
    original = log.content.splitlines()[int(low) - 1 : int(high)]
    assert [row.split("\t", 1)[1] for row in back.splitlines()[1:]] == original
    assert int(count) == len(original)
    request = policy.messages_for_request(history)
    assert anthropic_problems(request) == [] and openai_problems(request) == []


def test_the_choice_is_made_once_and_never_changes():
    policy, history = _policy(), [user_text(TASK)]
    _turn(policy, history, "c1", "python run_report.py", ToolOutput(_log(), True))
    _turn(policy, history, "c2", "ls", ToolOutput("a.py"))
    first = _shown(policy.messages_for_request(history), "c1")
    for n in range(3, 12):  # later turns name other rows: the lines stay as chosen
        _turn(policy, history, f"c{n}", f"echo worker_{n}", ToolOutput(f"worker_{n}"))
        assert _shown(policy.messages_for_request(history), "c1") == first


def test_a_file_read_is_judged_after_some_turns_by_what_the_model_used():
    policy, history = _policy(), [user_text(TASK)]
    source = "\n".join(
        [
            f"def handler_{i}(request):\n    return render(request, 'page_{i}.html')"
            for i in range(60)
        ]
    )
    _turn(policy, history, "c1", "cat app/views.py", ToolOutput(source))
    _turn(policy, history, "c2", "ls", ToolOutput("a.py"), note="handler_12 is the one")
    assert _shown(policy.messages_for_request(history), "c1") == source  # too early to judge
    for n in range(3, 10):
        _turn(policy, history, f"c{n}", f"ls dir_{n}", ToolOutput(f"f{n}.py"))
        policy.messages_for_request(history)
    shown = _shown(policy.messages_for_request(history), "c1")
    assert "def handler_12(request):" in shown and "def handler_30(request):" not in shown


def test_an_output_that_reads_like_a_specification_stays_whole():
    policy, history = _policy(), [user_text(TASK)]
    spec = "\n".join(
        [
            "# Issue 26: keep the report totals exact",
            *(
                f"- The report must show the total of every invoice in section {i} rounded "
                "to cents, never to whole units, and say which rows it skipped."
                for i in range(30)
            ),
        ]
    )
    _turn(policy, history, "c1", "issues show 26", ToolOutput(spec))
    for n in range(2, 12):
        _turn(policy, history, f"c{n}", f"ls dir_{n}", ToolOutput(f"f{n}.py"))
        policy.messages_for_request(history)
    assert _shown(policy.messages_for_request(history), "c1") == spec


def test_a_numbered_view_of_a_specification_stays_whole_too():
    """A file view's line numbers (read_file's `  12\t`, Claude Code's `12→`, `cat -n`) do not
    hide that the text is prose: a task file read by line numbers is quoted like a printed one."""
    rows = ["# Plan: report totals"]
    for i in range(30):  # markdown of short lines: no prose rule would catch it
        rows += [f"## Section {i}", f"- total_{i}: cents", f"| row_{i} | skipped |"]
    for gutter in ("{n:>6}\t", "{n:>6}→", "{n}: "):
        policy, history = _policy(), [user_text(TASK)]
        view = "\n".join(gutter.format(n=n) + row for n, row in enumerate(rows, 1))
        call = ToolCall("c1", "read_file", {"path": "docs/plan.md"})
        history.append(Message("assistant", [call]))
        policy.on_tool_result(call, ToolOutput(view))
        history.append(Message("user", [ToolResult("c1", view)]))
        for n in range(2, 30):
            _turn(policy, history, f"c{n}", f"ls dir_{n}", ToolOutput(f"f{n}.py"), note="invoice")
            policy.messages_for_request(history)
        assert _shown(policy.messages_for_request(history), "c1") == view, gutter


def _module(name: str, n: int = 120) -> str:
    return "\n".join(
        f"def {name}_{i}(request):\n    return render(request, '{name}/page_{i}.html')"
        for i in range(n)
    )


def test_reads_are_judged_after_one_turn_when_the_session_reads_a_lot_at_once():
    """Large reads waiting for their judgment (over `late_crowd` tokens in all) are judged one
    turn on, while nothing is cached after them yet, instead of six; one read alone waits."""
    policy, history = _policy(), [user_text(TASK)]
    calls = [ToolCall(f"r{k}", "read_file", {"path": f"app/m{k}.py"}) for k in range(4)]
    history.append(Message("assistant", list(calls)))
    outputs = [ToolOutput(_module(f"view{k}")) for k in range(4)]
    for call, out in zip(calls, outputs, strict=True):
        policy.on_tool_result(call, out)
    results = [ToolResult(c.id, o.content) for c, o in zip(calls, outputs, strict=True)]
    history.append(Message("user", results))
    sizes = [policy.count(o.content) for o in outputs]
    assert max(sizes) < 4_000 and sum(sizes) > 12_000  # none cut by the size rule
    assert _shown(policy.messages_for_request(history), "r0") == outputs[0].content
    _turn(policy, history, "c1", "ls", ToolOutput("a.py"), note="view0_12 is the one")
    request = policy.messages_for_request(history)
    shown = _shown(request, "r0")
    assert "def view0_12(request):" in shown and "def view0_30(request):" not in shown
    assert all(len(_shown(request, f"r{k}")) < len(outputs[k].content) / 3 for k in range(4))
    # a single read of the same size is not crowded: it waits its six turns
    alone, history = _policy(), [user_text(TASK)]
    _turn(alone, history, "c1", "cat app/m0.py", outputs[0])
    for n in range(2, 6):
        _turn(alone, history, f"c{n}", f"ls dir_{n}", ToolOutput(f"f{n}.py"), note="view0_12")
        assert _shown(alone.messages_for_request(history), "c1") == outputs[0].content
