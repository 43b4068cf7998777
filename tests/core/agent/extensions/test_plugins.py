"""A plugin installed from a tiny local package (tests/fixtures/unicum_plugin_demo) into a
throwaway folder on PYTHONPATH is picked up: its tool, fact rule, memory rule and provider; its
broken entry point is one warning."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import ROOT, provider_env, run_cli
from tests.helpers.mcp_helpers import tool_results, tool_specs

PACKAGE = ROOT / "tests" / "fixtures" / "unicum_plugin_demo"


@pytest.fixture(scope="module")
def plugin_path(tmp_path_factory) -> str:
    target = tmp_path_factory.mktemp("plugin-site")
    build = tmp_path_factory.mktemp("plugin-build")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation", "--no-index"]
        + ["--target", str(target), str(PACKAGE)],
        capture_output=True,
        text=True,
        cwd=build,
        env={**os.environ, "PIP_NO_CACHE_DIR": "1", "TMPDIR": str(build)},
    )
    if proc.returncode != 0:  # setuptools too old to build a wheel offline (no bdist_wheel)
        install_by_hand(target)
    return os.pathsep.join([str(target), str(ROOT)])


def install_by_hand(target: Path) -> None:
    """What pip would leave in `target`: the module and a dist-info with the package's entry
    points (read from its pyproject.toml)."""
    project = tomllib.loads((PACKAGE / "pyproject.toml").read_text())["project"]
    shutil.copy(PACKAGE / "unicum_plugin_demo.py", target)
    info = target / f"unicum_plugin_demo-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
    )
    groups = project["entry-points"]
    (info / "entry_points.txt").write_text(
        "".join(
            f"[{group}]\n" + "".join(f"{k} = {v}\n" for k, v in eps.items()) + "\n"
            for group, eps in groups.items()
        )
    )


def test_plugins_subcommand_lists_them_and_the_broken_one(plugin_path):
    proc = run_cli("plugins", env={"PYTHONPATH": plugin_path})
    assert proc.returncode == 1  # one plugin is broken
    lines = proc.stdout.splitlines()
    assert "unicum.tools\tshout\tunicum-plugin-demo\tshout" in lines
    assert "unicum.providers\tdemo\tunicum-plugin-demo\tdemo" in lines
    assert "unicum.fact_rules\tshout\tunicum-plugin-demo\tshout" in lines
    broken = [line for line in lines if "\tbroken\t" in line]
    assert len(broken) == 1 and "ModuleNotFoundError" in broken[0]


def test_without_the_package_there_are_no_plugins():
    proc = run_cli("plugins")
    assert proc.returncode == 0 and "shout" not in proc.stdout


def test_a_session_uses_the_plugin_tool_rules_and_provider(plugin_path, llm, workspace):
    llm.call("shout", {"text": "tea"})
    llm.reply("shouted")
    env = {
        "PYTHONPATH": plugin_path,
        "DEMO_API_KEY": "fake-demo-key",
        "DEMO_BASE_URL": provider_env(llm, "openai")["OPENAI_BASE_URL"],
    }
    proc = run_cli("--dir", str(workspace), "-p", "shout tea", "--provider", "demo", env=env)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "shouted"
    assert llm.requests[0].body["model"] == "demo-model"
    assert "shout" in tool_specs(llm.requests[0].body)
    assert tool_results(llm.requests[1].body) == ["TEA!"]
    warnings = [line for line in proc.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1 and "plugin broken (unicum.tools" in warnings[0], proc.stderr
    listed = run_cli("memory", "list", "--dir", str(workspace), env=env)
    assert "the user likes tea" in listed.stdout, listed.stdout + listed.stderr


def test_the_plugin_is_not_left_in_the_venv():
    found = subprocess.run(
        [
            sys.executable,
            "-c",
            "import importlib.util as u; print(u.find_spec('unicum_plugin_demo'))",
        ],
        capture_output=True,
        text=True,
        cwd=Path("/"),
    )
    assert found.stdout.strip() == "None"
