"""The one atomic write and file lock every writer uses."""

from __future__ import annotations

import threading
import time

import pytest

from my_agent.files import atomic_write, file_lock


def test_atomic_write_keeps_the_permission_bits(tmp_path):
    target = tmp_path / "run.sh"
    target.write_text("old\n")
    target.chmod(0o751)
    atomic_write(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert target.stat().st_mode & 0o7777 == 0o751


def test_atomic_write_creates_folders_and_takes_a_given_mode(tmp_path):
    target = tmp_path / "a" / "b" / "f.txt"
    atomic_write(target, b"x", mode=0o640)
    assert target.read_bytes() == b"x"
    assert target.stat().st_mode & 0o7777 == 0o640


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temp_file(tmp_path):
    (tmp_path / "d").mkdir()
    target = tmp_path / "d" / "f.txt"
    target.write_text("old\n")
    with pytest.raises(TypeError):
        atomic_write(target, "not bytes")  # type: ignore[arg-type]
    assert target.read_text() == "old\n"
    assert [p.name for p in target.parent.iterdir()] == ["f.txt"]


def test_file_lock_blocks_a_second_holder_until_released(tmp_path):
    lock = tmp_path / "x.lock"
    order: list[str] = []

    def second() -> None:
        with file_lock(lock):
            order.append("second")

    with file_lock(lock):
        thread = threading.Thread(target=second)
        thread.start()
        time.sleep(0.2)
        order.append("first")
    thread.join(60)  # a hang-guard
    assert order == ["first", "second"]
