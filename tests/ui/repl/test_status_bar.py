"""The status line is the prompt's bottom toolbar, in the real REPL in a pseudo-terminal: it
shows once the session is open, below the input line (never printed above it), and is worked
out again when the permission mode changes (Shift-Tab) without a line typed; Claude Code's
`statusLine` command gets its JSON and COLUMNS, and each line it prints is a row."""

from __future__ import annotations

import json
import re
import time

from tests.helpers.hook_helpers import git
from tests.helpers.repl_driver import Repl, start_repl

SHIFT_TAB = "\x1b[Z"
CTRL_L = "\x0c"  # a full redraw: the screen's rows as they are, not the changed cells only


def start(llm, workspace) -> Repl:
    """The REPL in a terminal that answers cursor-position requests (a toolbar needs them)."""
    return start_repl(llm, workspace, "--no-codemap", cpr=True)


def after_last_prompt(repl) -> str:
    return repl.text[repl.text.rfind("unicum>") :]


def test_the_built_in_line_is_a_toolbar_that_follows_the_mode(llm, workspace):
    git(workspace, "init", "-q", "-b", "feature-x")
    repl = start(llm, workspace)
    try:
        repl.expect(r"context \d+% · \$[\d.-]+ · default · feature-x")  # once open, unasked
        repl.command("/help", r"/permissions")
        repl.expect(r"context \d+% · \$[\d.-]+ · default · feature-x")
        assert re.search(r"· default · feature-x", after_last_prompt(repl))  # below the input
        repl.child.send(SHIFT_TAB)
        repl.expect(r"accept edits")  # the toolbar redrawn in place: no line was entered
        repl.child.send(CTRL_L)
        repl.expect(r"context \d+% · \$[\d.-]+ · accept edits · feature-x")
        assert re.search(r"· accept edits · feature-x", after_last_prompt(repl))
    finally:
        repl.close()


def test_claude_codes_statusline_command_rows_refresh_on_a_mode_change(
    llm, workspace, isolated_home, tmp_path
):
    count = tmp_path / "runs"
    script = tmp_path / "status.sh"
    script.write_text(
        "#!/bin/bash\ninput=$(cat)\n"
        f"n=$(( $(cat {count} 2>/dev/null || echo 0) + 1 )); echo $n > {count}\n"
        'echo "run $n of $(echo "$input" | jq -r .model.id)"\n'
        'echo "cols $COLUMNS, used $(echo "$input" | jq -r .context_window.used_percentage)%"\n'
    )
    script.chmod(0o755)
    settings = {"statusLine": {"type": "command", "command": str(script)}}
    (isolated_home / "settings.json").write_text(json.dumps(settings))
    repl = start(llm, workspace)
    try:
        first = repl.expect(r"run (\d+) of \S+")
        repl.expect(r"cols 160, used \d+%")  # its second line, a row of its own
        runs = int(first.group(1))
        repl.child.send(SHIFT_TAB)  # the mode changed: the command runs again, no line typed
        shown = runs
        deadline = time.monotonic() + 60  # a hang-guard
        while shown == runs and time.monotonic() < deadline:  # until its new output is drawn
            time.sleep(0.2)
            repl.child.send(CTRL_L)
            shown = int(repl.expect(r"run (\d+) of \S+").group(1))
        assert shown > runs
        assert re.search(r"run \d+ of \S+\s+cols 160", after_last_prompt(repl))
    finally:
        repl.close()
