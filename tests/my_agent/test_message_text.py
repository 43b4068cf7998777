"""The one message → text reading: counting, comparing and summary transcripts use it."""

from __future__ import annotations

from my_agent.messages import Message, ReasoningBlock, TextBlock, ToolCall, ToolResult, message_text


def test_every_block_kind_but_reasoning_is_shown():
    msg = Message(
        "assistant",
        [
            ReasoningBlock("private thoughts"),
            TextBlock("Looking."),
            ToolCall("c1", "read_file", {"path": "src/é.py"}),
        ],
    )
    assert message_text(msg) == 'assistant:\nLooking.\nread_file({"path": "src/é.py"})'
    result = Message("user", [ToolResult("c1", "no such file", is_error=True)])
    assert message_text(result) == "user:\nerror: no such file"
