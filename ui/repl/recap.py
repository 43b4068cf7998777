"""What a resumed session shows first: the last exchange and how the last task ended."""

from __future__ import annotations

from typing import Any

from ui.words import STOP_WORDS


def show_recap(repl: Any) -> None:
    """The last exchange of a resumed session, so the person knows where they are."""
    repl.say(
        repl.s.t(
            "resumed session {id} ({n} messages)", id=repl.opts.session_id, n=repl.live.resumed
        )
    )
    history = repl.agent.history
    last_user = next(
        (
            m.text
            for m in reversed(history)
            if m.role == "user" and m.text and not m.text.startswith("[The user ran /")
        ),
        "",
    )  # skip UI notes
    last_reply = next((m.text for m in reversed(history) if m.role == "assistant" and m.text), "")
    if last_user:
        repl.say(f"» {last_user.strip()[:300]}", style="dim")
    if last_reply:
        repl.say(last_reply.strip()[:600], style="dim")
    from core.agent import last_stop

    transcript = repl.live.transcript
    stop = last_stop(transcript.path) if transcript is not None else ""
    if stop and stop != "done":  # how the last task really ended
        repl.say(
            repl.s.t("the last task ended: {reason}", reason=repl.s.t(STOP_WORDS[stop])),
            style="yellow",
        )
