"""Secrets never reach the model: one table of secret variables, redaction of every tool result,
and Unicum's own files behind an approval."""

from __future__ import annotations

from core.agent.records.debug_log import DebugLog
from my_agent.secrets import REDACTED, secret_values
from tests.helpers.tool_helpers import ScriptedUser, make_ctx, run

KEY = "fake-very-secret-key"
GH = "fake-github-token-value"


def test_tool_results_are_redacted(workspace, isolated_home, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    (workspace / "notes.txt").write_text(f"key={KEY}\n")
    ctx = make_ctx(workspace, isolated_home)
    out = run(ctx, "read_file", path="notes.txt")
    assert KEY not in out.content and REDACTED in out.content
    shell = run(ctx, "terminal", command="cat notes.txt")
    assert KEY not in shell.content and KEY not in str(shell.data)
    assert REDACTED in shell.data["output"]


def test_one_table_strips_and_redacts_tokens(workspace, isolated_home, monkeypatch, tmp_path):
    monkeypatch.setenv("GITHUB_TOKEN", GH)
    ctx = make_ctx(workspace, isolated_home)
    out = run(ctx, "terminal", command='echo "[${GITHUB_TOKEN:-none}] [${UNICUM_HOME:-nohome}]"')
    assert "[none] [nohome]" in out.content  # neither is passed to commands
    assert GH in secret_values()
    log = DebugLog(tmp_path, "s1")
    log.write("request", {"text": f"token {GH}"})
    assert GH not in log.path.read_text()


def test_unicum_home_is_not_read_without_asking(workspace, isolated_home, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    (isolated_home / ".env").write_text(f"OPENAI_API_KEY={KEY}\n")
    ctx = make_ctx(workspace, isolated_home)
    shell = run(ctx, "terminal", command=f"cat {isolated_home}/.env")
    assert shell.is_error and "refused" in shell.content and KEY not in shell.content
    read = run(ctx, "read_file", path=str(isolated_home / ".env"))
    assert read.is_error and "API keys" in read.content
    # even an 'always' for outside reads does not cover Unicum's home; each file is asked
    (workspace.parent / "other.txt").write_text("other\n")
    user = ScriptedUser("a", "n")
    ctx = make_ctx(workspace, isolated_home, prompter=user)
    assert not run(ctx, "read_file", path="../other.txt").is_error
    assert run(ctx, "read_file", path=str(isolated_home / ".env")).is_error
    assert len(user.questions) == 2 and "API keys" in user.questions[1]
    assert (
        run(
            ctx_p := make_ctx(workspace, isolated_home),
            "terminal",
            command="grep -rn 'UNICUM_HOME\\|.unicum-agent' . || true",
        ).data["exit_code"]
        == 0
    )
    hidden = run(ctx_p, "terminal", command=f"echo $(cat {isolated_home}/.env)")
    assert hidden.is_error and "refused" in hidden.content
    approved = run(
        make_ctx(workspace, isolated_home, yes=True),
        "terminal",
        command=f"cat {isolated_home}/.env",
    )
    assert not approved.is_error and KEY not in approved.content  # --yes: still redacted


def test_dotenv_outside_the_workspace_asks(workspace, isolated_home, tmp_path):
    (tmp_path / ".env").write_text("DB_PASSWORD=hunter2hunter2\n")
    user = ScriptedUser("n")
    ctx = make_ctx(workspace, isolated_home, prompter=user)
    out = run(ctx, "read_file", path="../.env")
    assert out.is_error and "hunter2" not in out.content and "API keys" in user.questions[0]
    (workspace / ".env").write_text("LOCAL=1\n")
    assert not run(ctx, "read_file", path=".env").is_error  # the project's own .env is fine
