"""`/config` in the real REPL, typed in a pseudo-terminal, as Claude Code's: the settings with
their values and files, `key=value` changes applied at once and kept in the user's files, and a
bad key or value one line with nothing changed."""

from __future__ import annotations

import json
import re

from tests.helpers.repl_driver import start_repl


def test_config_shows_changes_and_keeps_the_settings(llm, workspace, isolated_home):
    (isolated_home / "settings.json").write_text(json.dumps({"hooks": {}, "x": 1}))
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.command("/config", r"change one with /config key=value")
        assert re.search(r"defaultMode\s+default\s+\(settings\.json permissions\)", repl.text)
        assert re.search(r"editorMode\s+normal", repl.text)
        assert re.search(r"model\s+claude-\S+\s+\(config\.json models\)", repl.text)
        repl.command("/config --help", r"editorMode\s+normal \| vim")
        repl.command(
            "/config defaultMode=acceptEdits editorMode=vim model=claude-x",
            r"model set to claude-x",
        )
        assert "accept edits · unicum>" in repl.text  # the mode changed at once
        repl.command("/config statusLine=off", r"statusLine set to off")
        saved = json.loads((isolated_home / "settings.json").read_text())
        assert saved == {
            "hooks": {},
            "x": 1,
            "permissions": {"defaultMode": "acceptEdits"},
            "editorMode": "vim",
        }
        config = json.loads((isolated_home / "config.json").read_text())
        assert config["models"] == {"anthropic": "claude-x"}
        repl.command("/config", r"change one with")
        assert re.search(r"model\s+claude-x", repl.text)
    finally:
        repl.close()


def test_a_bad_key_or_value_is_one_line_and_changes_nothing(llm, workspace, isolated_home):
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.command(
            "/config editorMode=vim defaultMode=sometimes",
            r"defaultMode cannot be sometimes: one of default, acceptEdits, plan, "
            r"bypassPermissions",
        )
        repl.command("/config colour=blue", r"unknown setting colour: the keys are model, ")
        repl.command("/config theme=dark", r"theme: Claude Code's setting, not supported here")
        repl.command("/config vim", r"write /config key=value")
        assert not (isolated_home / "settings.json").exists()  # all or none: nothing written
    finally:
        repl.close()


def test_language_set_by_config_speaks_from_the_next_start(llm, workspace, isolated_home):
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.command("/config language=zh", r"language set to zh: from the next start")
    finally:
        repl.close()
    assert json.loads((isolated_home / "settings.json").read_text()) == {"language": "zh"}
    repl = start_repl(llm, workspace, "--no-codemap")
    try:
        repl.command("/config vim", r"/config key=value")  # the hint, now in Chinese
        assert "write /config" not in repl.text
    finally:
        repl.close()
