"""Packaging: the version in one place, the Python check, the `unicum` entry point, the wheel."""

from __future__ import annotations

import importlib.metadata
import importlib.util
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

import cli
from tests.conftest import ROOT, run_cli

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
PACKAGES = ("my_agent", "core", "tools", "ui")  # every file in them ships, .py or not
OLD_PYTHONS = sorted(Path.home().glob(".pyenv/versions/3.10.*/bin/python")) + [
    Path(p) for p in filter(None, [shutil.which(f"python3.{minor}") for minor in (10, 9, 8)])
]


def test_version_is_cli_version_and_pyproject_reads_it_from_there():
    assert PYPROJECT["project"]["dynamic"] == ["version"]
    assert PYPROJECT["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "cli.__version__"}
    proc = run_cli("--version")
    assert (proc.returncode, proc.stdout) == (0, f"unicum {cli.__version__}\n")
    assert cli.__version__ == "0.1.0"


def test_python_check_names_the_needed_and_the_running_version():
    assert cli.python_problem((3, 10, 13, "final", 0)) == (
        "Unicum needs Python 3.11 or newer; this is 3.10.13"
    )
    assert cli.python_problem((2, 7, 18)) == "Unicum needs Python 3.11 or newer; this is 2.7.18"
    assert cli.python_problem((3, 11, 0, "final", 0)) is None
    assert cli.python_problem((3, 13, 1)) is None
    assert PYPROJECT["project"]["requires-python"] == ">=3.11"


@pytest.mark.skipif(not OLD_PYTHONS, reason="no Python 3.8-3.10 interpreter on this machine")
@pytest.mark.parametrize("args", [["--help"], ["-p", "hi"], ["memory", "list"]])
def test_an_old_python_gets_one_line_and_exit_2(args):
    old = OLD_PYTHONS[0]
    proc = subprocess.run(
        [str(old), str(ROOT / "cli.py"), *args], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 2, proc.stderr
    assert re.fullmatch(r"Unicum needs Python 3\.11 or newer; this is 3\.\d+\.\d+\n", proc.stderr)
    assert proc.stdout == ""


def runtime_pins() -> dict[str, str]:
    text = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    runtime = text.split("# Tests and tooling")[0]
    pins = [Requirement(line) for line in runtime.splitlines() if line and line[0] != "#"]
    return {r.name.lower().replace("_", "-"): str(r.specifier).removeprefix("==") for r in pins}


def test_pyproject_dependencies_are_the_runtime_pins_as_ranges():
    ranges = {
        (r := Requirement(text)).name.lower().replace("_", "-"): r.specifier
        for text in PYPROJECT["project"]["dependencies"]
    }
    pins = runtime_pins()
    assert ranges.keys() == pins.keys()
    outside = {name: pin for name, pin in pins.items() if pin not in ranges[name]}
    assert outside == {}


def installed_unicum() -> Path | None:
    script = Path(sys.executable).parent / "unicum"
    return script if script.is_file() else None


@pytest.mark.skipif(
    installed_unicum() is None,
    reason="the unicum entry point is not installed here (pip install . or .ci/run installs it)",
)
def test_installed_unicum_entry_point(tmp_path):
    assert importlib.metadata.version("unicum") == cli.__version__
    proc = subprocess.run(
        [str(installed_unicum()), "--version"], cwd=tmp_path, capture_output=True, text=True
    )
    assert (proc.returncode, proc.stdout) == (0, f"unicum {cli.__version__}\n"), proc.stderr
    listed = subprocess.run(
        [str(installed_unicum()), "memory", "list", "--dir", str(tmp_path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert listed.returncode == 0 and "no memory entries" in listed.stdout, listed.stderr


def can_build_wheels() -> bool:
    """setuptools 70.1+ builds wheels itself; older ones need the `wheel` package."""
    try:
        version = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return False
    return Version(version) >= Version("70.1") or importlib.util.find_spec("wheel") is not None


@pytest.mark.skipif(
    not can_build_wheels(),
    reason="no offline wheel build: needs setuptools>=70.1 (requirements.txt pins it) or wheel",
)
def test_the_wheel_holds_every_package_the_cli_module_and_pricing(tmp_path):
    source = tmp_path / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in PACKAGES:
        shutil.copytree(ROOT / name, source / name, ignore=ignore)
    wanted = {"cli.py"} | {
        p.relative_to(source).as_posix() for p in source.rglob("*") if p.is_file()
    }
    for name in ("cli.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
         "-w", str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert build.returncode == 0, build.stderr
    (wheel,) = (tmp_path / "dist").glob("unicum-0.1.0-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"cli.py", "core/ledger/pricing.json", "my_agent/shell/__init__.py"} <= wanted
    assert wanted - names == set()
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "unicum = cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
