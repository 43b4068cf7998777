"""The cache-aware policy, pure: valid messages in both wire formats, a stable prefix between
compaction events, the LLM summary that always fits, and the hard crop."""

from __future__ import annotations

import pytest

from core.context import L0_HEADER, Archive, CacheAwareContext, ContextBudget
from my_agent.errors import UnicumError
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, message_text, user_text
from tests.helpers.wire_checks import anthropic_problems, openai_problems
from tools.base import ToolOutput

TASK = "修复登录 bug: make tests/test_auth.py pass"


def _code(n: int, lines: int = 120) -> str:
    return "\n".join(f"def handler_{n}_{i}(request):  # 处理请求 {i}" for i in range(lines))


def _turn(n: int) -> tuple[Message, list[tuple[ToolCall, ToolOutput]]]:
    """One assistant turn; every fourth has parallel calls, some write big files."""
    calls = [ToolCall(f"t{n}a", "read_file", {"path": f"pkg/mod_{n}.py"})]
    outputs = [ToolOutput(_code(n), data={"path": f"pkg/mod_{n}.py", "lines": 120})]
    if n % 4 == 0:
        calls.append(
            ToolCall(f"t{n}b", "write_file", {"path": f"pkg/new_{n}.py", "content": _code(n, 60)})
        )
        outputs.append(ToolOutput(f"created pkg/new_{n}.py (60 lines)", data={"path": "x"}))
        calls.append(ToolCall(f"t{n}c", "terminal", {"command": "pytest -q"}))
        outputs.append(
            ToolOutput(
                "F.\nFAILED tests/test_auth.py::test_login - assert 0\n"
                "==== 1 failed, 1 passed in 0.1s ====\n[exit 1]",
                True,
            )
        )
    return Message("assistant", [TextBlock(f"step {n}"), *calls]), list(
        zip(calls, outputs, strict=True)
    )


def drive(policy: CacheAwareContext, turns: int, follow_up_every: int = 0):
    """Run the policy the way the agent loop does; yield each request it builds."""
    history = [user_text(TASK)]
    for n in range(turns):
        if follow_up_every and n and n % follow_up_every == 0:
            history += [
                Message("assistant", [TextBlock("done so far")]),
                user_text(f"继续 — follow-up request {n}"),
            ]
        yield history, policy.messages_for_request(history)
        msg, pairs = _turn(n)
        history.append(msg)
        for call, output in pairs:
            policy.on_tool_result(call, output)
        history.append(Message("user", [ToolResult(c.id, o.content, o.is_error) for c, o in pairs]))


def texts(messages: list[Message]) -> list[str]:
    return [message_text(m) for m in messages]


def test_batches_keep_the_request_append_only_between_events_and_valid():
    policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000))
    previous, events, sizes = [], 0, []
    for _, request in drive(policy, 60, follow_up_every=13):
        assert anthropic_problems(request) == [] and openai_problems(request) == []
        now = texts(request)
        if policy.compactions == events and previous:
            # between events only the early decisions rewrite (an output into its lines,
            # once, when that pays): everything else stays as it was sent
            lined = set(policy.early.lines.values())
            for msg, was, text in zip(request, previous, now, strict=False):
                rewritten = {b.content for b in msg.tool_results}
                assert text == was or rewritten & lined, "prefix changed without an event"
        events = policy.compactions
        previous = now
        sizes.append(policy.tokens(request))
    assert 3 <= policy.compactions <= 60 // 2  # in batches, not on every call
    assert max(sizes[30:]) < 0.5 * sum(policy.result_tokens.values())  # bounded, not growing
    request_text = "\n".join(previous)
    assert TASK in request_text and "follow-up request 52" in request_text
    assert "[archived #a1]" in request_text and request_text.count(L0_HEADER) == 1
    assert "handler_0_1(request)" not in request_text  # old outputs are facts now...
    assert policy.archive.get("a1").text.startswith("def handler_0_0")  # ...recallable in full


def test_big_written_contents_are_archived_in_compacted_calls():
    policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000))
    *_, (history, request) = drive(policy, 30)
    compacted_write = next(
        b for m in request for b in m.blocks if isinstance(b, ToolCall) and b.id == "t0b"
    )
    assert "lines archived #" in compacted_write.arguments["content"]
    arg_id = compacted_write.arguments["content"].rsplit("#", 1)[1].rstrip("]")
    assert policy.archive.get(arg_id).text == _code(0, 60)
    original = next(
        b for m in history for b in m.blocks if isinstance(b, ToolCall) and b.id == "t0b"
    )
    assert original.arguments["content"] == _code(0, 60)  # the history itself is untouched


@pytest.mark.parametrize("early_args", ["all", "writes"])
def test_a_big_write_is_a_stand_in_from_the_next_request_on_a_long_command_too(early_args):
    """By default every long argument is a stand-in from the next request on (it was never
    sent cached); with `early_args="writes"` a long command waits for an event."""
    budget = ContextBudget(window_tokens=200_000, early_args=early_args)
    policy = CacheAwareContext(Archive(), budget)
    script = "python - <<'EOF'\n" + _code(1, 40) + "\nEOF"
    calls = [
        ToolCall("w", "write_file", {"path": "pkg/new.py", "content": _code(0, 60)}),
        ToolCall("r", "terminal", {"command": script}),
    ]
    outputs = [ToolOutput("created pkg/new.py (60 lines)"), ToolOutput("ok\n[exit 0]")]
    history = [user_text(TASK), Message("assistant", calls)]
    pairs = list(zip(calls, outputs, strict=True))
    for call, output in pairs:
        policy.on_tool_result(call, output)
    history.append(Message("user", [ToolResult(c.id, o.content) for c, o in pairs]))
    request = policy.messages_for_request(history)
    assert policy.compactions == 0  # no event: the call had never been sent cached
    write, run = request[1].tool_calls
    assert "[60 lines archived #" in write.arguments["content"]
    arg_id = write.arguments["content"].rsplit("#", 1)[1].rstrip("]")
    assert policy.archive.get(arg_id).text == _code(0, 60)
    if early_args == "writes":
        assert run.arguments["command"] == script  # the model's own command stays until an event
        return
    assert (
        run.arguments["command"].startswith("python - <<'EOF'")
        and "archived #" in (run.arguments["command"])
    )
    script_id = run.arguments["command"].rsplit("#", 1)[1].rstrip("]")
    assert policy.archive.get(script_id).text == script
    assert history[1].tool_calls[1].arguments["command"] == script  # the history is untouched


def test_an_argument_over_300_characters_is_a_stand_in_a_shorter_one_stays():
    policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000))
    script = "python - <<'EOF'\n" + _code(2, 9) + "\nEOF"  # ~350 characters
    short = "grep -rn handler_2_1 pkg/ && sed -n 1,40p pkg/new.py"
    calls = [
        ToolCall("a", "terminal", {"command": script}),
        ToolCall("b", "terminal", {"command": short}),
    ]
    history = [user_text(TASK), Message("assistant", calls)]
    for call in calls:
        policy.on_tool_result(call, ToolOutput("ok\n[exit 0]"))
    history.append(Message("user", [ToolResult(c.id, "ok\n[exit 0]") for c in calls]))
    assert 300 < len(script) < 600
    long_run, short_run = policy.messages_for_request(history)[1].tool_calls
    assert long_run.arguments["command"].startswith("python - <<'EOF' … [11 lines archived #")
    assert short_run.arguments["command"] == short


def test_summary_near_the_window_fits_and_keeps_the_task():
    seen: list[str] = []

    def summarize(messages: list[Message]) -> str:
        seen.append(messages[0].text)
        return "## Task\nfix login\n## Files changed\npkg/new_0.py\n## Test status\n1 failed"

    budget = ContextBudget(window_tokens=24_000, reserve_tokens=4_000, overhead_tokens=1_000)
    policy = CacheAwareContext(Archive(), budget, summarize=summarize)
    for _, request in drive(policy, 120, follow_up_every=17):
        assert anthropic_problems(request) == [] and openai_problems(request) == []
        assert policy.tokens(request) + budget.overhead_tokens <= budget.window_tokens
    assert seen, "the summary never ran"
    assert all(policy.count(s) < budget.window_tokens - budget.reserve_tokens for s in seen)
    first = request[0].text
    assert TASK in first and "## Files changed" in first and "follow-up request 85" in first
    assert "follow-up request 102" in "\n".join(texts(request))


def test_crop_is_the_last_resort_and_never_splits_a_call():
    attempts = []

    def broken(messages: list[Message]) -> str:
        attempts.append(1)
        raise RuntimeError("provider down")

    budget = ContextBudget(window_tokens=12_000, reserve_tokens=2_000)
    policy = CacheAwareContext(Archive(), budget, summarize=broken)
    for _, request in drive(policy, 80):
        assert anthropic_problems(request) == [] and openai_problems(request) == []
        assert policy.tokens(request) <= budget.window_tokens - budget.reserve_tokens
    assert policy.crops > 0 and TASK in request[0].text
    assert 0 < len(attempts) < policy.crops  # a failing summary is not retried on every request


def test_manual_compact_replaces_older_turns_with_the_summary():
    policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000))
    *_, (history, _) = drive(policy, 12)
    unchanged = texts(policy.messages_for_request(history))
    with pytest.raises(UnicumError, match="empty"):
        policy.compact(history, lambda msgs: "  ")
    assert texts(policy.messages_for_request(history)) == unchanged  # nothing lost
    summary = policy.compact(history, lambda msgs: "## Task\nfix login\n## Open todo\nrun tests")
    assert "Open todo" in summary
    request = policy.messages_for_request(history)
    assert request[0].role == "user" and TASK in request[0].text and "Open todo" in request[0].text
    assert len(request) < len(history)
    assert anthropic_problems(request) == [] and openai_problems(request) == []
    calls = []
    assert policy.compact(history, lambda msgs: calls.append(msgs) or "again") == ""
    assert calls == []  # nothing new since the last summary: no model call


def test_a_resumed_session_compacts_its_old_history_with_the_same_archive_ids(tmp_path):
    path = tmp_path / "archive.jsonl"
    first = CacheAwareContext(Archive.open(path), ContextBudget(window_tokens=200_000))
    *_, (history, before) = drive(first, 40)
    history = [Message.from_dict(m.to_dict()) for m in history]  # as saved and loaded

    resumed = CacheAwareContext(Archive.open(path), ContextBudget(window_tokens=200_000))
    after = resumed.messages_for_request(history)

    assert resumed.compactions == 1
    assert resumed.tokens(after) < 0.5 * sum(resumed.result_tokens.values())
    marks = [
        b.content.split("]")[0]
        for m in after
        for b in m.blocks
        if isinstance(b, ToolResult) and b.content.startswith("[archived")
    ]
    assert marks and all(first.archive.get(mark.split("#")[1]) for mark in marks)
    assert resumed.archive.get("a1").text == first.archive.get("a1").text
    assert anthropic_problems(after) == [] and openai_problems(after) == []


def test_usage_calibrates_the_local_estimate():
    policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000))
    history = [user_text("word " * 3000)]
    estimate = policy.tokens(policy.messages_for_request(history))
    policy.observe_usage(2 * estimate)  # the provider counts twice what we estimated
    assert policy.ratio > 1.2
    assert policy.tokens(policy.messages_for_request(history)) > 1.2 * estimate


def test_the_archive_keeps_the_full_output_when_the_tool_cut_it():
    policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000))
    call = ToolCall("c1", "terminal", {"command": "pytest -q"})
    full = "\n".join(f"line {i}" for i in range(5000))
    fact = policy.on_tool_result(
        call, ToolOutput(full[:200] + "\n[… cut …]", data={"full_output": full, "exit_code": 0})
    )
    assert policy.archive.get(fact.archive_id).text == full
    assert policy.facts["c1"].archive_id == fact.archive_id


def test_an_event_keeps_the_lines_of_a_read_the_model_named_since():
    """By default an event turns a read into the lines the steps since used (with pointers
    for the rest) instead of its one-line fact; `event_lines=()` gives the fact line."""
    source = "\n".join(
        f"def handler_{i}(request):\n    return page_{i}(request)" for i in range(60)
    )
    shown = {}
    for name, budget in (("facts", {"event_lines": ()}), ("default", {})):
        policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000, **budget))
        history = [user_text("fix handler_12")]
        read = ToolCall("r1", "read_file", {"path": "app/views.py"})
        history.append(Message("assistant", [read]))
        policy.on_tool_result(read, ToolOutput(source))
        history.append(Message("user", [ToolResult("r1", source)]))
        ls = ToolCall("c2", "terminal", {"command": "ls"})
        history.append(Message("assistant", [TextBlock("handler_12 is the one"), ls]))
        policy.on_tool_result(ls, ToolOutput("a.py"))
        history.append(Message("user", [ToolResult("c2", "a.py")]))
        policy.messages_for_request(history)
        assert policy.compact_facts(history, force=True)
        view = policy.view(history)
        shown[name] = next(b.content for m in view for b in m.tool_results if b.call_id == "r1")
    assert shown["facts"].startswith("[archived #") and "handler_12(" not in shown["facts"]
    lined = shown["default"]
    assert "def handler_12(request):" in lined and "def handler_30(request):" not in lined
    assert "recall" in lined  # the rest is pointed at


def test_an_event_whose_lines_do_not_pay_still_fires_with_fact_lines():
    """Keeping named lines must not cost the event itself: when the lined form does not pay
    and the fact lines do, the event fires with the fact lines."""
    budget = ContextBudget(window_tokens=200_000, event_lines=("read",))  # the default's
    policy = CacheAwareContext(Archive(), budget)
    history = [user_text("fix the totals")]
    for n in range(30):  # each read: 200 handlers; the next note names 60 of them
        policy.messages_for_request(history)
        call = ToolCall(f"r{n}", "read_file", {"path": f"pkg/mod_{n}.py"})
        text = "\n".join(
            f"def handler_{n}_{i}(request):\n    return page_{n}_{i}(request)" for i in range(200)
        )
        note = " ".join(f"handler_{n - 1}_{i}" for i in range(60))
        history.append(Message("assistant", [TextBlock(note), call] if n else [call]))
        policy.on_tool_result(call, ToolOutput(text))
        history.append(Message("user", [ToolResult(f"r{n}", text)]))
    policy.messages_for_request(history)
    assert policy.compactions == 1
    shown = next(b.content for m in policy.view(history) for b in m.tool_results)
    assert shown.startswith("[archived #a1] [read_file] pkg/mod_0.py")
