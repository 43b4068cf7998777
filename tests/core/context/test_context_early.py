"""Decisions the context policy takes before any compaction event, once a newer turn follows:
outputs a later step rarely needs become their fact line, and the model's longer notes beside
its tool calls shorten when that pays. Each is taken once, so the cached prefix stays put."""

from __future__ import annotations

from core.context import Archive, CacheAwareContext, ContextBudget
from my_agent.messages import Message, TextBlock, ToolCall, ToolResult, message_text, user_text
from tests.helpers.wire_checks import anthropic_problems, openai_problems
from tools.base import ToolOutput

TASK = "修复 the report: make tests/test_report.py pass"
NO_EVENTS = 10_000_000  # batch size no session reaches: only the early decisions rewrite


def _lines(tag: str, count: int) -> str:
    return "\n".join(f"{tag} row {i}: value_{tag}_{i} = {i * 7}" for i in range(count))


def _policy(**budget) -> CacheAwareContext:
    budget = {"window_tokens": 200_000, "batch_tokens": NO_EVENTS, **budget}
    return CacheAwareContext(Archive(), ContextBudget(**budget))


def _turn(policy, history, calls: list[tuple[str, str, ToolOutput]], note: str = "") -> None:
    """One assistant turn with `calls` as (id, command, output), then its results."""
    blocks = [TextBlock(note)] if note else []
    made = [ToolCall(cid, "terminal", {"command": cmd}) for cid, cmd, _ in calls]
    history.append(Message("assistant", [*blocks, *made]))
    results = []
    for call, (_, _, out) in zip(made, calls, strict=True):
        policy.on_tool_result(call, out)
        results.append(ToolResult(call.id, out.content, out.is_error))
    history.append(Message("user", results))


def _shown(request: list[Message], call_id: str) -> str:
    return next(b.content for m in request for b in m.tool_results if b.call_id == call_id)


def test_a_long_passing_run_becomes_its_line_once_a_newer_turn_follows():
    policy, history = _policy(), [user_text(TASK)]
    long_run = ToolOutput(_lines("run", 200) + "\n[exit 0]")
    _turn(policy, history, [("c1", "python report.py", long_run)])
    first = policy.messages_for_request(history)
    assert _shown(first, "c1") == long_run.content  # the model sees it whole once
    _turn(policy, history, [("c2", "ls", ToolOutput("a.py\nb.py\n"))])
    second = policy.messages_for_request(history)
    line = _shown(second, "c1")
    assert line.startswith("[archived #") and len(line) < 300
    entry = line.split("#", 1)[1].split("]", 1)[0]
    assert policy.archive.get(entry).text == long_run.content  # recall gives it back whole
    assert anthropic_problems(second) == [] and openai_problems(second) == []
    for n in range(3, 8):
        _turn(policy, history, [(f"c{n}", f"cat part_{n}.txt", ToolOutput(_lines(f"p{n}", 30)))])
        assert _shown(policy.messages_for_request(history), "c1") == line  # decided once
    assert policy.compact_facts(history, force=True)  # an event archives everything else
    assert (
        _shown(policy.view(history), "c1") == line
        and _shown(policy.view(history), "c3") != "a.py\n"
    )


def test_what_later_steps_use_stays_whole():
    policy, history = _policy(), [user_text(TASK)]
    short_run = ToolOutput(_lines("short", 20) + "\n[exit 0]")  # values a later command reuses
    failing = ToolOutput(_lines("fail", 200) + "\nAssertionError: 3 != 4\n[exit 1]", True)
    hits = ToolOutput("\n".join(f"report.py:{n}: total_{n} = 0" for n in range(40)))  # narrow
    _turn(policy, history, [("c1", "python report.py", short_run)])
    _turn(policy, history, [("c2", "python -m pytest tests/test_report.py", failing)])
    _turn(policy, history, [("c3", "grep -n total report.py", hits)])
    for n in range(4, 7):
        _turn(policy, history, [(f"c{n}", "ls", ToolOutput("a.py\n"))])
    request = policy.messages_for_request(history)
    assert _shown(request, "c1") == short_run.content
    shown = _shown(request, "c2")  # the failure being worked on: its error lines stay
    assert "AssertionError: 3 != 4\n[exit 1]" in shown and len(shown) < len(failing.content) / 5
    assert _shown(request, "c3") == hits.content


def test_passing_tests_and_write_receipts_become_lines():
    policy, history = _policy(), [user_text(TASK)]
    passed = ToolOutput("\n".join(f"tests/test_{i}.py::test_ok PASSED" for i in range(80)))
    _turn(policy, history, [("c1", "python -m pytest -v", passed)])
    _turn(policy, history, [("c2", "ls", ToolOutput("a.py\n"))])
    shown = _shown(policy.messages_for_request(history), "c1")  # shaped at first show
    assert len(shown) < 200 and "recall a1 lines=2-79" in shown
    switched_off = _policy(early_kinds=(), early_lines=None, shape_outputs=False)
    history = [user_text(TASK)]
    _turn(switched_off, history, [("c1", "python -m pytest -v", passed)])
    _turn(switched_off, history, [("c2", "ls", ToolOutput("a.py\n"))])
    assert _shown(switched_off.messages_for_request(history), "c1") == passed.content


def test_parallel_results_of_the_latest_turn_all_stay_whole():
    policy, history = _policy(), [user_text(TASK)]
    outputs = [ToolOutput(_lines(f"p{i}", 200) + "\n[exit 0]") for i in range(3)]
    _turn(policy, history, [(f"c{i}", f"python job_{i}.py", outputs[i]) for i in range(3)])
    request = policy.messages_for_request(history)
    assert [_shown(request, f"c{i}") for i in range(3)] == [o.content for o in outputs]


def test_between_events_only_the_turn_before_the_latest_changes():
    policy, history = _policy(), [user_text(TASK)]
    previous: list[str] = []
    for n in range(30):
        now = [message_text(m) for m in policy.messages_for_request(history)]
        assert now[: max(0, len(previous) - 2)] == previous[:-2]  # the cached prefix holds
        previous = now
        out = ToolOutput(_lines(f"s{n}", 150 if n % 3 else 10) + "\n[exit 0]")
        _turn(policy, history, [(f"c{n}", f"python step_{n}.py", out)], _note(n))
    assert policy.compactions == 0 and policy.early.lines and policy.early.texts


def _notes(request: list[Message]) -> list[str]:
    """The model's texts in a request, in order."""
    return [
        b.text
        for m in request
        if m.role == "assistant"
        for b in m.blocks
        if isinstance(b, TextBlock)
    ]


def _note(n: int) -> str:
    return f"Turn {n}: the traceback points at the formatter. " * 30 + f"marker_{n} next."


def test_a_long_note_beside_a_tool_call_shortens_when_it_pays():
    policy, history = _policy(old_text_chars=300), [user_text(TASK)]
    for n in range(12):
        policy.messages_for_request(history)  # as the loop asks, once per turn
        _turn(policy, history, [(f"c{n}", "ls", ToolOutput(f"f{n}.py\n"))], _note(n))
    request = policy.messages_for_request(history)
    notes = _notes(request)
    assert notes[-1] == _note(11)  # the latest note stays whole
    short = notes[5]
    assert short.startswith("Turn 5: the traceback") and "marker_5" not in short
    entry = short.rsplit("#", 1)[1].rstrip("]")
    assert policy.archive.get(entry).text == _note(5)
    assert notes[0] == _note(0)  # at the start too few requests were expected to pay it back
    assert _note(5) in message_text(history[11])  # the history itself is untouched


def test_a_long_note_keeps_about_100_characters_by_default():
    policy, history = _policy(), [user_text(TASK)]
    for n in range(12):
        policy.messages_for_request(history)
        _turn(policy, history, [(f"c{n}", "ls", ToolOutput(f"f{n}.py\n"))], _note(n))
    short = _notes(policy.messages_for_request(history))[5]
    opening, _, pointer = short.partition("[… archived #")
    assert _note(5).startswith(opening.rstrip(" …")) and 50 <= len(opening) <= 110
    assert policy.archive.get(pointer.rstrip("]")).text == _note(5)


def test_a_note_followed_by_a_big_output_or_ending_the_task_stays_whole():
    policy, history = _policy(early_kinds=()), [user_text(TASK)]
    for n in range(10):
        policy.messages_for_request(history)
        _turn(policy, history, [(f"c{n}", "ls", ToolOutput(f"f{n}.py\n"))], _note(n))
    big = ToolOutput(_lines("big", 400))
    policy.messages_for_request(history)
    _turn(policy, history, [("cb", "cat big.py", big)], _note(10))  # re-sending it would cost more
    policy.messages_for_request(history)
    history.append(Message("assistant", [TextBlock(_note(11))]))  # an answer, no tool call
    history.append(user_text("thanks; and the other report?"))
    policy.messages_for_request(history)
    _turn(policy, history, [("cz", "ls", ToolOutput("z.py\n"))], _note(12))
    texts = [message_text(m) for m in policy.messages_for_request(history)]
    assert _note(10) in texts[-6] and _note(11) in texts[-4]
    assert _note(9) not in "\n".join(texts)  # an earlier one did shorten


def _reread(between: ToolOutput) -> tuple[str, str]:
    """`cat report.py` before and after an edit, `between` in a turn of its own: what the
    older and the newer view show."""
    policy, history = _policy(), [user_text(TASK)]
    before, after = ToolOutput(_lines("src", 200)), ToolOutput(_lines("new", 200))
    for n, (command, out) in enumerate(
        [("cat report.py", before), ("cat other.py", between), ("cat report.py", after)]
    ):
        policy.messages_for_request(history)
        _turn(policy, history, [(f"c{n}", command, out)])
    request = policy.messages_for_request(history)
    return _shown(request, "c0"), _shown(request, "c2")


def test_an_unchanged_view_again_points_at_the_first_which_stays():
    policy, history = _policy(), [user_text(TASK)]
    view = ToolOutput(_lines("src", 200))
    for n in range(3):
        policy.messages_for_request(history)
        _turn(policy, history, [(f"c{n}", "cat report.py", view)])
    request = policy.messages_for_request(history)
    assert _shown(request, "c0") == view.content
    assert _shown(request, "c2").startswith("[200 lines as in #")


def test_an_output_whose_call_ran_again_becomes_its_line_when_that_pays():
    older, newer = _reread(ToolOutput("x = 1\n"))
    assert older.startswith("[archived #") and "(repeated later)" in older
    assert newer.startswith("new row 0")  # the latest says what the file holds
    older, _ = _reread(ToolOutput(_lines("other", 400)))  # re-sending it would cost more
    assert older.startswith("src row 0")


def test_a_later_output_never_points_at_one_that_became_its_line():
    policy, history = _policy(), [user_text(TASK)]
    log = ToolOutput(_lines("log", 200) + "\n[exit 0]")
    policy.messages_for_request(history)
    _turn(policy, history, [("c1", "python report.py", log)])
    for n, out in enumerate([ToolOutput("a.py\n"), ToolOutput(_lines("log", 200))], start=2):
        policy.messages_for_request(history)  # c1 becomes its line here
        _turn(policy, history, [(f"c{n}", f"cat run_{n}.log", out)])
    request = policy.messages_for_request(history)
    assert _shown(request, "c1").startswith("[archived #")
    assert _shown(request, "c3").startswith("log row 0")  # whole, not "as in #… above"


def test_parallel_runs_of_one_command_each_keep_the_line_they_got():
    policy, history = _policy(), [user_text(TASK)]
    first, second = (ToolOutput(_lines(tag, 200) + "\n[exit 0]") for tag in ("one", "two"))
    _turn(policy, history, [("x", "python gen.py", first), ("y", "python gen.py", second)])
    request = policy.messages_for_request(history)
    assert [_shown(request, c) for c in "xy"] == [first.content, second.content]  # both seen
    seen = []
    for n in range(4):
        policy.messages_for_request(history)
        _turn(policy, history, [(f"c{n}", "ls", ToolOutput("a.py\n"))])
        seen.append(_shown(policy.messages_for_request(history), "x"))
    assert seen[0].startswith("[archived #") and len(set(seen)) == 1


def test_a_line_after_an_answer_and_a_new_question_pays_for_re_sending_them():
    """The answer and the question after an output were sent once already: lining the output
    then re-sends them, so a long answer keeps it whole."""
    for answer, lined in (("Done: the report is fixed.", True), (_lines("answer", 600), False)):
        policy, history = _policy(), [user_text(TASK)]
        for n in range(6):
            policy.messages_for_request(history)
            _turn(policy, history, [(f"c{n}", "ls", ToolOutput(f"f{n}.py\n"))])
        policy.messages_for_request(history)
        _turn(policy, history, [("run", "python report.py", ToolOutput(_lines("r", 200)))])
        policy.messages_for_request(history)
        history.append(Message("assistant", [TextBlock(answer)]))
        history.append(user_text("and the summary table?"))
        before = [message_text(m) for m in policy.messages_for_request(history)]
        _turn(policy, history, [("z", "ls", ToolOutput("z.py\n"))])
        after = policy.messages_for_request(history)
        assert _shown(after, "run").startswith("[archived #") is lined, answer[:20]
        if not lined:
            assert [message_text(m) for m in after[: len(before)]] == before


def test_after_a_rewind_older_notes_are_not_judged_again():
    policy, history = _policy(), [user_text(TASK)]
    for n in range(12):
        policy.messages_for_request(history)
        _turn(policy, history, [(f"c{n}", "ls", ToolOutput(f"f{n}.py\n"))], _note(n))
    previous = [message_text(m) for m in policy.messages_for_request(history)]
    cut = 13  # back to the end of the sixth turn, as /rewind does
    del history[cut:]
    history.append(user_text("不对，换一种做法"))
    now = [message_text(m) for m in policy.messages_for_request(history)]
    assert now[:cut] == previous[:cut]  # the note that stayed whole at first stays whole


def _live_then_resumed(turns: int, path) -> tuple[list[Message], list[Message]]:
    """The same session's last request, from the live policy and from a fresh one that takes
    the saved history and archive in (a resumed process)."""
    budget = ContextBudget(window_tokens=200_000, batch_tokens=NO_EVENTS)
    policy, history = CacheAwareContext(Archive.open(path), budget), [user_text(TASK)]
    for n in range(turns):
        policy.messages_for_request(history)
        out = ToolOutput(_lines(f"t{n}", 150) + "\n[exit 0]")
        _turn(policy, history, [(f"c{n}", f"python step_{n}.py", out)], _note(n))
    live = policy.messages_for_request(history)
    history = [Message.from_dict(m.to_dict()) for m in history]  # as saved and loaded
    return live, CacheAwareContext(Archive.open(path), budget).messages_for_request(history)


def test_a_resumed_session_takes_the_decisions_the_live_one_took(tmp_path):
    """After a restart the request is the live session's, byte for byte: the outputs it made
    lines are lines (the first request carried nothing, so nothing is priced as re-sent), and
    a note is short exactly when the live session archived it."""
    live, resumed = _live_then_resumed(12, tmp_path / "archive.jsonl")
    assert [message_text(m) for m in resumed] == [message_text(m) for m in live]
    assert sum(b.content.startswith("[archived #") for m in live for b in m.tool_results) >= 10
    notes = _notes(live)
    assert "[… archived #" in notes[8] and "[… archived #" not in notes[0]  # both kinds


def test_a_note_kept_whole_is_not_archived():
    policy, history = _policy(old_text_chars=300), [user_text(TASK)]
    for n in range(3):
        policy.messages_for_request(history)
        _turn(policy, history, [(f"c{n}", "ls", ToolOutput(f"f{n}.py\n"))], _note(n))
    policy.messages_for_request(history)
    assert not [e for e in policy.archive.entries.values() if e.tool == "assistant"]


def test_a_note_before_an_output_that_becomes_its_line_is_priced_against_the_line():
    policy, history = _policy(), [user_text(TASK)]
    for n in range(10):
        policy.messages_for_request(history)
        big = ToolOutput(_lines(f"b{n}", 300) + "\n[exit 0]")  # becomes its line one turn on
        _turn(policy, history, [(f"c{n}", f"python big_{n}.py", big)], _note(n))
    request = policy.messages_for_request(history)
    notes = _notes(request)
    assert "marker_6" not in notes[6] and notes[6].startswith("Turn 6")


def test_a_short_output_of_a_command_with_a_long_script_stays_whole():
    policy, history = _policy(), [user_text(TASK)]
    script = "python - <<'EOF'\n" + "\n".join(f"print({i} * 7)" for i in range(120)) + "\nEOF"
    values = ToolOutput("\n".join(str(i * 7) for i in range(120)) + "\n[exit 0]")
    _turn(policy, history, [("c1", script, values)])
    for n in range(2, 4):
        policy.messages_for_request(history)
        _turn(policy, history, [(f"c{n}", "ls", ToolOutput("a.py\n"))])
    assert _shown(policy.messages_for_request(history), "c1") == values.content


def test_an_output_only_a_pointer_no_longer_shown_cites_is_still_decided():
    """A later copy of a log points at it; once that copy is its line, the log is judged."""
    policy, history = _policy(shape_outputs=False), [user_text(TASK)]
    rows = [f"tests/test_{i}.py::test_ok PASSED" for i in range(150)]
    log = ToolOutput("\n".join(rows))
    more = ToolOutput("\n".join(rows + [f"tests/test_{i}.py::test_new PASSED" for i in range(150)]))
    steps = [("a", "python -m pytest -v", log), ("y", "python -m pytest -v tests/", more)]
    steps += [(f"w{n}", "ls", ToolOutput("a.py\n")) for n in range(3)]
    for call_id, command, out in steps:
        policy.messages_for_request(history)
        _turn(policy, history, [(call_id, command, out)])
    request = policy.messages_for_request(history)
    assert _shown(request, "y").startswith("[archived #")
    assert _shown(request, "a").startswith("[archived #")


def test_outputs_already_lines_count_at_their_size_in_the_kept_tail():
    """A read, then passing logs that became lines one turn on: the verbatim tail is measured
    by what it shows, so the read is still in it and no event archives it (measured at full
    size, the logs alone filled the tail and the read was archived)."""
    policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000, shape_outputs=False))
    history = [user_text(TASK)]
    policy.messages_for_request(history)
    _turn(policy, history, [("r", "cat big.py", ToolOutput(_lines("src", 700)))])
    for n in range(8):
        passed = ToolOutput("\n".join(f"tests/test_{n}_{i}.py::test_ok PASSED" for i in range(400)))
        policy.messages_for_request(history)
        _turn(policy, history, [(f"t{n}", f"python -m pytest -v -k part{n}", passed)])
    for n in range(3):  # enough results not yet archived for an event to be considered
        policy.messages_for_request(history)
        _turn(policy, history, [(f"l{n}", f"ls dir_{n}", ToolOutput("a.py\n"))])
    request = policy.messages_for_request(history)
    assert policy.compactions == 0
    assert _shown(request, "r").startswith("src row 0")
    assert all(_shown(request, f"t{n}").startswith("[archived #") for n in range(8))
