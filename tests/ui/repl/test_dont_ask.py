"""`--permission-mode dontAsk` in the real REPL (a pseudo-terminal), as Claude Code's permission
modes page says: whatever would ask is refused without a question; allowed calls run."""

from __future__ import annotations

from tests.helpers.repl_driver import start_repl


def test_dont_ask_refuses_without_asking(llm, workspace):
    for name in ("built", "other"):
        (workspace / name).mkdir()
    llm.call("terminal", {"command": "rm -r built"})
    llm.call("terminal", {"command": "rm -r other"})
    llm.reply("all done")
    repl = start_repl(
        llm, workspace, "--no-codemap", "--sandbox", "off", "--permission-mode", "dontAsk",
        "--allowedTools", "Bash(rm -r built)",
    )  # fmt: skip
    try:
        repl.send("tidy up")
        repl.expect("all done")
        repl.prompt()
        assert "Run it?" not in repl.text and "[y/n" not in repl.text  # nothing was asked
        assert not (workspace / "built").exists() and (workspace / "other").is_dir()
    finally:
        repl.close()
