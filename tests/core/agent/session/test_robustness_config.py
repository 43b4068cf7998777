"""Bad settings get one line and exit 2; a model only goes to the provider it was meant for."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from core.model import resolve_provider
from tests.conftest import provider_env, run_cli


def _one_line_error(proc, code: int = 2) -> str:
    assert proc.returncode == code, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def test_gbk_dotenv_is_read(llm, workspace, isolated_home):
    """The key comes from the Unicum home's .env (a project's .env never gives one)."""
    env = provider_env(llm, "openai")
    key = env.pop("OPENAI_API_KEY")
    (isolated_home / ".env").write_bytes(f"# 密钥：测试用\nOPENAI_API_KEY={key}\n".encode("gbk"))
    llm.reply("好的")
    proc = run_cli("--dir", str(workspace), "--provider", "openai", "-p", "hi", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "好的"
    assert (
        llm.requests[0].headers.get("Authorization", llm.requests[0].headers.get("authorization"))
        == f"Bearer {key}"
    )


def test_undecodable_dotenv_is_one_line_exit_2(workspace, isolated_home):
    (isolated_home / ".env").write_bytes(b"OPENAI_API_KEY=\xff\xfe\xff\n")
    proc = run_cli("--dir", str(workspace), "-p", "hi")
    line = _one_line_error(proc)
    assert "cannot read" in line and ".env" in line and "not UTF-8" in line


@pytest.mark.parametrize(
    "args, fragment",
    [
        (["--max-turns", "0", "-p", "x"], "must be positive"),
        (["--max-turns", "-1", "-p", "x"], "must be positive"),
        (["usage", "--limit", "-1"], "positive"),
        (["usage", "--limit", "0"], "positive"),
    ],
)
def test_nonpositive_counts_are_rejected(args, fragment):
    proc = run_cli(*args)
    assert proc.returncode == 2 and fragment in proc.stderr and "Traceback" not in proc.stderr


@pytest.mark.parametrize("task", ["", "   \n"])
def test_empty_task_is_one_line_exit_2(task, workspace):
    proc = run_cli("--dir", str(workspace), "-p", task)
    assert "needs a task" in _one_line_error(proc)


# --- which model goes to which provider ---------------------------------------------------
def _pick(
    home: Path,
    monkeypatch,
    config: dict | None = None,
    env: dict | None = None,
    provider: str | None = None,
    model: str | None = None,
) -> tuple[str, str]:
    for var in ("OPENAI_API_KEY", "ZHIPUAI_API_KEY", "DEEPSEEK_API_KEY"):
        monkeypatch.setenv(var, "k")
    for var, value in (env or {}).items():
        monkeypatch.setenv(var, value)
    if config is not None:
        (home / "config.json").write_text(json.dumps(config), encoding="utf-8")
    chosen = resolve_provider(provider, model)
    return chosen.profile.name, chosen.model


ZHIPU_CFG = {"provider": "zhipu", "model": "glm-4.6"}


@pytest.mark.parametrize(
    "config, env, provider, model, expected",
    [
        # config names a provider and its model: another provider keeps its own default
        (ZHIPU_CFG, {}, "openai", None, ("openai", "gpt-4o")),
        (ZHIPU_CFG, {}, None, None, ("zhipu", "glm-4.6")),
        (ZHIPU_CFG, {}, "zhipu", None, ("zhipu", "glm-4.6")),
        (ZHIPU_CFG, {"UNICUM_PROVIDER": "deepseek"}, None, None, ("deepseek", "deepseek-chat")),
        # the environment layer, the same way
        (
            None,
            {"UNICUM_PROVIDER": "zhipu", "UNICUM_MODEL": "glm-4.6"},
            "openai",
            None,
            ("openai", "gpt-4o"),
        ),
        (
            None,
            {"UNICUM_PROVIDER": "zhipu", "UNICUM_MODEL": "glm-4.6"},
            None,
            None,
            ("zhipu", "glm-4.6"),
        ),
        # a model with no provider applies to a provider picked by its layer or a lower one
        (None, {"UNICUM_MODEL": "glm-4.6"}, None, None, ("zhipu", "glm-4.6")),
        (None, {"UNICUM_MODEL": "gpt-4o-mini"}, "zhipu", None, ("zhipu", "glm-5.1")),
        ({"model": "glm-4.6"}, {"UNICUM_PROVIDER": "zhipu"}, None, None, ("zhipu", "glm-5.1")),
        ({"provider": "zhipu"}, {"UNICUM_MODEL": "glm-4.6"}, None, None, ("zhipu", "glm-4.6")),
        # models keyed by provider follow the provider wherever it was chosen
        (
            {**ZHIPU_CFG, "models": {"openai": "gpt-4o-mini"}},
            {},
            "openai",
            None,
            ("openai", "gpt-4o-mini"),
        ),
        # --model always wins
        (ZHIPU_CFG, {"UNICUM_MODEL": "other"}, "openai", "gpt-4.1", ("openai", "gpt-4.1")),
        (ZHIPU_CFG, {}, None, "glm-4.5", ("zhipu", "glm-4.5")),
    ],
)
def test_model_follows_the_provider_it_was_meant_for(
    isolated_home, monkeypatch, config, env, provider, model, expected
):
    assert _pick(isolated_home, monkeypatch, config, env, provider, model) == expected


def test_config_model_is_not_sent_to_a_flag_provider(llm, workspace, isolated_home):
    (isolated_home / "config.json").write_text(json.dumps(ZHIPU_CFG), encoding="utf-8")
    llm.reply("ok")
    proc = run_cli(
        "--dir", str(workspace), "--provider", "openai", "-p", "hi", env=provider_env(llm, "openai")
    )
    assert proc.returncode == 0, proc.stderr
    assert llm.requests[0].body["model"] == "gpt-4o"


# --- tests themselves are isolated -------------------------------------------------------
def test_cli_runs_in_the_tests_own_folder_and_home(llm, workspace, tmp_path, isolated_home):
    """The Unicum home's `.env` is the test's, and `~` is a temporary folder."""
    assert Path.cwd() == tmp_path and Path.home() != Path(os.path.expanduser("~root"))
    env = provider_env(llm, "openai")
    (isolated_home / ".env").write_text(f"OPENAI_API_KEY={env.pop('OPENAI_API_KEY')}\n")
    claude = Path.home() / ".claude"
    claude.mkdir()
    (claude / "CLAUDE.md").write_text("Marker: user-level instructions of this test.\n")
    llm.reply("ok")
    proc = run_cli("--dir", str(workspace), "--provider", "openai", "-p", "hi", env=env)
    assert proc.returncode == 0, proc.stderr
    system = json.dumps(llm.requests[0].body["messages"][0], ensure_ascii=False)
    assert "Marker: user-level instructions of this test." in system
    assert str(Path.home()).startswith(str(tmp_path))
