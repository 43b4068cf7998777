"""clarify: ask the person at the keyboard, or say that nobody is there."""

from __future__ import annotations

from typing import Any

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params

NO_USER = (
    "No user is present (non-interactive run), so nobody can answer. Proceed on your own "
    "judgment: pick the most reasonable option and state the assumption in your answer."
)


def clarify(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    question = args["question"].strip()
    if not question:
        raise ToolError("question is empty")
    choices = [str(c) for c in args.get("choices") or []]
    if not ctx.prompter.interactive:
        return ToolOutput(NO_USER, data={"question": question, "answer": None})
    answer = (ctx.prompter.ask(question, choices) or "").strip()
    if not answer:
        return ToolOutput(
            "The user gave no answer; proceed on your own judgment.",
            data={"question": question, "answer": ""},
        )
    return ToolOutput(f"The user answered: {answer}", data={"question": question, "answer": answer})


TOOLS = [
    Tool(
        "clarify",
        "Ask the user a question when a decision is truly theirs; optional choices.",
        params(
            ["question"],
            question={"type": "string"},
            choices={"type": "array", "items": {"type": "string"}},
        ),
        clarify,
        key_arg="question",
        read_only=True,
    ),
]
