"""The sandbox's host folders: removed by their process at its end, and by the next session
when their process was killed; never while their process lives."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from tools.held_dirs import HeldDir, sweep
from tools.sandbox import Sandbox, SandboxPolicy

ROOT = Path(__file__).resolve().parents[2]
HOLDER = """
import sys, time
from tools.held_dirs import HeldDir
held = HeldDir(parent=sys.argv[1])
(held.path / "work.txt").write_text("x")
print(held.root, flush=True)
if sys.argv[2] == "wait":
    time.sleep(120)
"""


def _holder(parent: Path, mode: str) -> tuple[subprocess.Popen, Path]:
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(parent), mode],
        cwd=ROOT, stdout=subprocess.PIPE, text=True, env=os.environ | {"PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert proc.stdout is not None
    return proc, Path(proc.stdout.readline().strip())


def test_a_killed_sessions_folder_goes_with_the_next_one_and_a_live_ones_stays(tmp_path):
    killed, killed_root = _holder(tmp_path, "wait")
    alive, alive_root = _holder(tmp_path, "wait")
    try:
        assert (killed_root / "data" / "work.txt").is_file()
        killed.send_signal(signal.SIGKILL)  # no exit handler runs
        killed.wait(30)
        assert killed_root.is_dir()  # left behind, as any killed process leaves its folders
        held = HeldDir(parent=str(tmp_path))  # the next session
        assert not killed_root.exists()
        assert (alive_root / "data" / "work.txt").is_file()  # its process still holds it
        assert held.path.is_dir() and held.root.parent == tmp_path
        held.release()
        assert not held.root.exists()
    finally:
        for proc in (killed, alive):
            proc.kill()
            proc.wait(30)
    assert sweep(str(tmp_path)) == [alive_root]  # killed too now: the next sweep takes it


def test_a_process_that_ends_normally_removes_its_folder(tmp_path):
    parent = tmp_path / "tmp"
    parent.mkdir()
    proc, root = _holder(parent, "exit")
    assert proc.wait(30) == 0
    assert root.parent == parent and not root.exists()
    assert list(parent.iterdir()) == []


def test_a_folder_without_a_lock_is_not_swept(tmp_path):
    stranger = tmp_path / "unicum-sandbox-someone-else"
    (stranger / "data").mkdir(parents=True)
    assert sweep(str(tmp_path)) == []
    assert stranger.is_dir()


def test_the_sandboxs_private_tmp_is_a_held_folder_commands_cannot_see_the_lock_of(tmp_path):
    workspace = (
        Path.home() / ".unicum-test-held" / "ws"
    )  # not under /tmp (the private one hides it)
    workspace.mkdir(parents=True, exist_ok=True)
    try:
        box = Sandbox(SandboxPolicy(), workspace, tmp_path / "home")
        if box.problem:
            raise AssertionError(f"the sandbox must work here: {box.problem}")
        argv = box.wrap(["sh", "-c", "ls -a /tmp; echo made > /tmp/inside.txt"], workspace)
        out = subprocess.run(argv, capture_output=True, text=True, timeout=60)
        box.finished()
        private = Path(box.private_tmp())
        assert out.returncode == 0, out.stderr
        assert ".held" not in out.stdout.split()
        assert (private / "inside.txt").read_text() == "made\n"
        assert (private.parent / ".held").is_file()
        root = private.parent
        del box
        assert not root.exists()  # the sandbox object gone: its folders with it
    finally:
        shutil.rmtree(workspace.parent, ignore_errors=True)
