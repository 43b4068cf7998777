"""Approval questions at the keyboard: the diff (or the command and why) first, then one key —
y once, s this session, a always, n no, e no and a line of text back to the model."""

from __future__ import annotations

from collections.abc import Callable

from ui.terminal import styled
from ui.views.diff import named_hunks
from ui.words import APPROVE_WORDS, Strings

KEYS = ("y", "s", "a", "n", "e")
MAX_DIFF_LINES = 60
_STYLES = {"+": "green", "-": "red", "@": "cyan"}


def diff_lines(detail: str) -> list[tuple[str, str]]:
    """(line, style) for a unified diff, its hunks naming the file, capped."""
    lines = named_hunks(detail.splitlines())
    shown = [(f"    {ln}", _STYLES.get(ln[:1], "dim")) for ln in lines[:MAX_DIFF_LINES]]
    if len(lines) > MAX_DIFF_LINES:
        shown.append((f"    … +{len(lines) - MAX_DIFF_LINES}", "dim"))
    return shown


def read_key(message: str, keys: tuple[str, ...], enter: str = "") -> str:
    """One key press among `keys`, no Enter (Ctrl-C interrupts; Ctrl-D and Esc answer 'n';
    Enter answers `enter` when given); `message` may carry the colours of `styled`."""
    from prompt_toolkit.application import Application
    from prompt_toolkit.formatted_text import ANSI
    from prompt_toolkit.key_binding import KeyBindings
    from prompt_toolkit.layout import FormattedTextControl, Layout, Window

    kb = KeyBindings()
    for key in keys:
        kb.add(key)(lambda event, key=key: event.app.exit(result=key))
        kb.add(key.upper())(lambda event, key=key: event.app.exit(result=key))
    kb.add("c-c")(lambda event: event.app.exit(exception=KeyboardInterrupt))
    for key in ("c-d", "escape"):
        kb.add(key, eager=True)(lambda event: event.app.exit(result="n"))
    if enter:
        kb.add("enter")(lambda event: event.app.exit(result=enter))
    app: Application[str] = Application(
        layout=Layout(
            Window(FormattedTextControl(ANSI(message)), height=1, dont_extend_height=True)
        ),
        key_bindings=kb,
        full_screen=False,
        erase_when_done=True,
    )
    return app.run()


def ask_approval(
    s: Strings,
    question: str,
    detail: str,
    write: Callable[[str], None],
    read_line: Callable[[str], str],
    key: Callable[[str, tuple[str, ...]], str] = read_key,
    edits: bool = False,
) -> str:
    """Show the detail and the question, take one key; 'e' then reads the reason. `edits`:
    an edit's 's' approves every edit this session, and the key says so."""
    for line, style in diff_lines(detail):
        write(styled(line, style))
    write(styled(question, "bold yellow"))
    keys = (
        s.t(
            "[y] yes once · [s] every edit this session · [a] always · [n] no · [e] no, and say why "
        )
        if edits
        else s.t("[y] yes once · [s] this session · [a] always · [n] no · [e] no, and say why ")
    )
    answer = key(keys, KEYS)
    if edits and answer == "s":
        write(styled(s.t("→ yes, every edit this session"), "dim"))
        return answer
    write(styled(s.t(APPROVE_WORDS[answer]), "dim"))
    if answer != "e":
        return answer
    why = read_line(s.t("why (sent to the model): "))
    return f"e:{why}" if why else "n"
