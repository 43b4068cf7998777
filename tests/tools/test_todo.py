"""The todo tool: the model's checklist, kept whole in L0 and in the summary across compaction."""

from __future__ import annotations

from core.context import L0_HEADER, Archive, CacheAwareContext, ContextBudget
from my_agent.messages import message_text
from tests.core.context.test_compaction import drive
from tests.helpers.tool_helpers import make_ctx, run
from tools.todo import TodoList

ITEMS = [
    {"content": "read the login code", "status": "done"},
    {"content": "fix the token check", "status": "in_progress"},
    {"content": "run the tests", "status": "pending"},
]


def test_the_tool_replaces_the_list_and_says_how_far(workspace, isolated_home):
    ctx = make_ctx(workspace, isolated_home)
    board = TodoList()
    ctx.services.todos = board
    out = run(ctx, "todo", todos=ITEMS)
    assert not out.is_error and out.content.startswith("todo list updated (1/3 done)")
    assert board.render() == (
        "Todo:\n[x] read the login code\n[~] fix the token check\n[ ] run the tests"
    )
    bad = run(ctx, "todo", todos=[{"content": "x", "status": "later"}])
    assert bad.is_error and board.items[0][0] == "read the login code"  # unchanged


def test_the_list_is_part_of_l0_and_the_summary():
    board = TodoList()
    board.replace([(i["content"], i["status"]) for i in ITEMS])
    policy = CacheAwareContext(Archive(), ContextBudget(window_tokens=200_000), pinned=board.render)
    *_, (history, request) = drive(policy, 40)
    assert policy.compactions >= 1
    l0 = next(message_text(m) for m in request if L0_HEADER in message_text(m))
    assert "[~] fix the token check" in l0 and "[ ] run the tests" in l0
    policy.compact(history, lambda msgs: "## Task\nfix login")
    first = message_text(policy.messages_for_request(history)[0])
    assert "[Summary of the session so far]" in first and "[x] read the login code" in first
