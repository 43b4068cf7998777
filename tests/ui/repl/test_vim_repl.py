"""Vim mode on the input line: `"editorMode": "vim"` (or the older `"editor_mode"`) in the settings, and `/vim`."""

from __future__ import annotations

import json

from tests.helpers.repl_driver import start_repl, user_texts

ESC = "\x1b"


def type_with_vi_keys(repl) -> None:
    """`hello`, Esc, `0` (line start), `i`, `X`: vi makes it `Xhello`."""
    repl.child.send("hello")
    repl.expect("hello")
    # Esc alone, not Alt+0: the next keys go only once the cursor stepped back onto the `o`
    # (a backspace drawn), which vi does on leaving insert mode, after the Esc timeout
    repl.press(ESC, "\x08")
    repl.child.send("0iX\r")


def test_vim_mode_from_the_settings_then_off_with_the_command(llm, workspace, isolated_home):
    (isolated_home / "settings.json").write_text(json.dumps({"editor_mode": "vim", "x": 1}))
    llm.reply("one")
    llm.reply("two")
    repl = start_repl(llm, workspace)
    try:
        type_with_vi_keys(repl)
        repl.expect("one")
        repl.prompt()
        repl.command("/vim", r"vim mode off \(saved in settings\.json\)")
        repl.send("plain typing")
        repl.expect("two")
        repl.prompt()
    finally:
        repl.close()
    assert user_texts(llm.requests[0].body) == ["Xhello"]
    assert user_texts(llm.requests[1].body)[-1] == "plain typing"
    saved = json.loads((isolated_home / "settings.json").read_text())
    assert saved == {"editorMode": "normal", "x": 1}  # Claude Code's key (editor_mode is read too)


def test_vim_command_turns_it_on_and_saves_it(llm, workspace, isolated_home):
    llm.reply("one")
    repl = start_repl(llm, workspace)
    try:
        repl.command("/vim", r"vim mode on: Esc for normal mode")
        type_with_vi_keys(repl)
        repl.expect("one")
        repl.prompt()
    finally:
        repl.close()
    assert user_texts(llm.requests[0].body) == ["Xhello"]
    assert json.loads((isolated_home / "settings.json").read_text()) == {"editorMode": "vim"}
