"""What the replay tuning added: older model text shortened (and recallable), repeated calls as
short lines, repeated definitions grouped, `cat -n` views read, events that wait for a batch.
These drive events alone: the decisions taken before any event (tests/core/context/test_context_early.py)
are off here."""

from __future__ import annotations

import pytest

from core.context import Archive, CacheAwareContext, ContextBudget
from core.facts import extract
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, message_text, user_text
from tests.helpers.wire_checks import anthropic_problems, openai_problems
from tools.base import ToolOutput

TASK = "修复 parser: make tests/test_parse.py pass"
NUMBERED = "\n".join(
    f"{n:6}\t" + (f"def step_{n}(x):" if n % 10 == 0 else "    x += 1") for n in range(200, 241)
)


def events_only(**budget) -> ContextBudget:
    """A budget whose only rewrites are compaction events."""
    return ContextBudget(
        window_tokens=200_000, early_kinds=(), early_notes=False, early_lines=None, **budget
    )


def _reasoning(n: int) -> str:
    return (
        f"Turn {n}: the output shows how the parser handles tokens. " * 6
        + f"\nNext I will look at module {n} because marker_{n} matters."
    )


def _output(n: int, lines: int = 150) -> str:
    return "\n".join(f"line {i} of run {n}: value_{n}_{i} = {i * n}" for i in range(lines))


def drive(
    policy: CacheAwareContext, turns: int, command=lambda n: f"python step_{n}.py", lines: int = 150
):
    """The agent loop's order: request, then the assistant turn, then its result."""
    history = [user_text(TASK)]
    requests = []
    for n in range(turns):
        requests.append(policy.messages_for_request(history))
        made = command(n)
        call = (
            made if isinstance(made, ToolCall) else ToolCall(f"c{n}", "terminal", {"command": made})
        )
        history.append(Message("assistant", [TextBlock(_reasoning(n)), call]))
        output = ToolOutput(_output(n, lines) + "\n[exit 0]")
        policy.on_tool_result(call, output)
        history.append(Message("user", [ToolResult(call.id, output.content)]))
    requests.append(policy.messages_for_request(history))
    return history, requests


def test_older_model_text_is_shortened_at_events_and_recallable():
    policy = CacheAwareContext(Archive(), events_only())
    history, requests = drive(policy, 24)
    final = requests[-1]
    assert policy.compactions >= 2
    assert anthropic_problems(final) == [] and openai_problems(final) == []
    first = next(b.text for b in final[1].blocks if isinstance(b, TextBlock))
    assert first.startswith("Turn 0: the output shows") and "marker_0" not in first
    assert len(first) < 400 and "[… archived #" in first
    entry_id = first.rsplit("#", 1)[1].rstrip("]")
    assert policy.archive.get(entry_id).text == _reasoning(0)  # nothing is lost
    latest = message_text(final[-2])
    assert _reasoning(23) in latest  # the tail keeps the model's text whole
    assert message_text(final[0]) == message_text(history[0])  # the task is never cut
    assert TASK in message_text(final[0])
    assert _reasoning(0) in message_text(history[1])  # the history itself is untouched


def test_text_shortening_only_happens_at_events():
    policy = CacheAwareContext(Archive(), events_only())
    events, previous = 0, []
    history = [user_text(TASK)]
    for n in range(30):
        now = [message_text(m) for m in policy.messages_for_request(history)]
        if policy.compactions == events and previous:
            assert now[: len(previous)] == previous
        events, previous = policy.compactions, now
        call = ToolCall(f"c{n}", "terminal", {"command": f"python step_{n}.py"})
        history.append(Message("assistant", [TextBlock(_reasoning(n)), call]))
        policy.on_tool_result(call, ToolOutput(_output(n)))
        history.append(Message("user", [ToolResult(call.id, _output(n))]))
    assert events >= 2


def test_no_shortening_when_switched_off():
    policy = CacheAwareContext(Archive(), events_only(old_text_chars=0))
    _, requests = drive(policy, 24)
    assert policy.compactions >= 2
    assert _reasoning(0) in message_text(requests[-1][1])


def test_a_repeated_command_leaves_a_short_line_the_latest_says_what_it_showed():
    policy = CacheAwareContext(Archive(), events_only())
    _, requests = drive(policy, 24, command=lambda n: "python run_checks.py")
    text = "\n".join(message_text(m) for m in requests[-1])
    assert "[archived #a1] (repeated later)" in text and text.count("(repeated later)") >= 2
    assert "[archived #a1] [terminal]" not in text  # the call right above names the command


def test_a_different_view_of_the_same_file_is_not_a_repeat():
    policy = CacheAwareContext(Archive(), events_only())
    _, requests = drive(
        policy,
        24,
        command=lambda n: ToolCall(
            f"c{n}", "Read", {"file_path": "pkg/big.py", "offset": n * 150, "limit": 150}
        ),
    )
    text = "\n".join(message_text(m) for m in requests[-1])
    assert "[archived #a1] [Read] pkg/big.py (151 lines" in text
    assert "repeated later" not in text


def test_large_outputs_compact_in_batches_not_on_every_call():
    policy = CacheAwareContext(Archive(), events_only())
    _, requests = drive(policy, 30, lines=300)  # ~3-4k tokens per output, above a batch
    assert 2 <= policy.compactions <= 30 // 3
    assert max(policy.tokens(r) for r in requests[10:]) < 0.5 * sum(policy.result_tokens.values())


def test_repeated_definitions_share_one_outline_entry():
    code = (
        "defmodule Web.Live do\n  def handle_info(:a, s), do: s\n  def mount(p, s), do: s\n"
        "  def handle_info(:b, s), do: s\n  def handle_info(:c, s), do: s\nend\n"
    )
    f = extract(ToolCall("c1", "read_file", {"path": "lib/live.ex"}), ToolOutput(code))
    assert "def handle_info (l.2, 4, 5)" in f.summary and "def mount (l.3)" in f.summary
    assert f.summary.count("handle_info") == 1


@pytest.mark.parametrize(
    "command,span",
    [
        ("cat -n pkg/parse.py | sed -n '200,240p'", "lines 200-240"),
        ("cd /repo && cat -n pkg/parse.py | head -250", "lines 200-240"),
        ("grep -n '' pkg/parse.py", None),
    ],
)
def test_numbered_cat_views_are_reads_of_the_file(command, span):
    f = extract(ToolCall("c1", "terminal", {"command": command}), ToolOutput(NUMBERED))
    if span is None:  # grep -n takes no argument either: the path is the searched file
        assert f.kind == "search"
        return
    assert f.kind == "read" and f.path == "pkg/parse.py"
    assert span in f.summary and "def step_200 (l.200)" in f.summary


def test_head_n_still_takes_its_count():
    f = extract(
        ToolCall("c1", "terminal", {"command": "head -n 20 pkg/parse.py"}),
        ToolOutput("def a():\n    pass\n"),
    )
    assert f.kind == "read" and f.path == "pkg/parse.py" and "def a (l.1)" in f.summary


def test_a_resumed_session_points_shortened_texts_at_the_same_entries(tmp_path):
    path = tmp_path / "archive.jsonl"
    first = CacheAwareContext(Archive.open(path), events_only())
    history, _ = drive(first, 24)
    history = [Message.from_dict(m.to_dict()) for m in history]  # as saved and loaded
    resumed = CacheAwareContext(Archive.open(path), events_only())
    after = resumed.messages_for_request(history)
    first_text = next(b.text for b in after[1].blocks if isinstance(b, TextBlock))
    entry_id = first_text.rsplit("#", 1)[1].rstrip("]")
    assert resumed.archive.get(entry_id).text == _reasoning(0)
    texts = [e for e in resumed.archive.entries.values() if e.tool == "assistant"]
    assert len({e.text for e in texts}) == len(texts)  # nothing archived twice


def _mixed_run(policy: CacheAwareContext, turns: int) -> str:
    """Small outputs (~190 tokens), every fifth a big one (~4.8k): the final request's text."""
    history = [user_text(TASK)]
    for n in range(turns):
        policy.messages_for_request(history)
        call = ToolCall(f"c{n}", "terminal", {"command": f"python step_{n}.py"})
        output = ToolOutput(_output(n, 300 if n % 5 == 4 else 12) + "\n[exit 0]")
        history.append(Message("assistant", [TextBlock(f"step {n}"), call]))
        policy.on_tool_result(call, output)
        history.append(Message("user", [ToolResult(call.id, output.content)]))
    return "\n".join(message_text(m) for m in policy.messages_for_request(history))


def test_a_small_output_stays_whole_only_among_the_latest_results():
    """Small outputs (<= 500 tokens) survive events while among the 20 latest results; older
    ones become fact lines at the next event, with the big ones."""
    policy = CacheAwareContext(Archive(), events_only())
    final = _mixed_run(policy, 60)
    assert policy.compactions >= 1
    assert "value_2_5 = 10" not in final  # an old small output is archived...
    assert "value_57_5 = 285" in final  # ...the latest small ones stay whole
    kept = CacheAwareContext(Archive(), events_only(small_for_results=0))
    assert "value_2_5 = 10" in _mixed_run(kept, 60)
