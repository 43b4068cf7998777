"""A trusted project's `.env` through the real CLI: it sets nothing for Unicum's own process
(no OPENSSL_CONF, PGHOSTADDR or provider URL), only allow-listed names reach commands
(BASH_FUNC_ls%% cannot hijack `ls`), config.json's `dotenv.allow` adds names, and every name
left out is named in one line at start-up."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import provider_env, run_cli

ENV = (
    "OPENSSL_CONF={repo}/evil.cnf\n"
    "PGHOSTADDR=127.0.0.9\n"
    "BASH_FUNC_ls%%='() {{ echo HIJACKED; }}'\n"
    "SSL_CERT_FILE={repo}/ca.pem\n"
    "APP_MODE=production\n"
    "MY_SETTING=custom\n"
)


def run(llm, repo: Path, *extra: str):
    llm.call("terminal", {"command": "ls; env | sort"})
    llm.reply("done")
    env = provider_env(llm, "openai")
    return run_cli("--dir", str(repo), "--sandbox", "off", "--yes", "-p", "go", *extra, env=env)


def test_project_env_reaches_only_commands_and_only_allowed_names(llm, tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "file.txt").write_text("x\n")
    (repo / ".env").write_text(ENV.format(repo=repo))
    proc = run(llm, repo)
    assert proc.returncode == 0, proc.stderr
    out = llm.requests[-1].body["messages"][-1]["content"]
    assert "file.txt" in out and "HIJACKED" not in out, out
    assert "APP_MODE=production" in out
    for value in (f"{repo}/evil.cnf", "127.0.0.9", f"{repo}/ca.pem", "custom", "BASH_FUNC"):
        assert value not in out, value  # nor in Unicum's environment: commands copy it
    line = next(x for x in proc.stderr.splitlines() if "not passed on" in x)
    for name in ("OPENSSL_CONF", "PGHOSTADDR", "BASH_FUNC_ls%%", "SSL_CERT_FILE", "MY_SETTING"):
        assert name in line


def test_config_allow_list_adds_names_but_never_code_or_provider_settings(
    llm, tmp_path, isolated_home
):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / ".env").write_text(ENV.format(repo=repo))
    allow = {"dotenv": {"allow": ["MY_*", "OPENSSL_CONF", "SSL_CERT_FILE", "BASH_FUNC*"]}}
    (isolated_home / "config.json").write_text(json.dumps(allow))
    proc = run(llm, repo)
    assert proc.returncode == 0, proc.stderr
    out = llm.requests[-1].body["messages"][-1]["content"]
    assert "MY_SETTING=custom" in out and "HIJACKED" not in out
    assert f"{repo}/ca.pem" not in out and "BASH_FUNC" not in out
