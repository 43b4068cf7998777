"""Where the per-command cgroups go, read from a process's `/proc/self/cgroup` the way the
kernel writes it: cgroup v2 (one unified line, the controllers its subtree delegates) and v1
(a line per controller hierarchy)."""

from __future__ import annotations

from tools.cgroups import Place, places


def test_v2_uses_the_delegated_controllers_of_its_own_cgroup(tmp_path):
    proc = tmp_path / "cgroup"
    proc.write_text("0::/user.slice/unicum.scope\n")
    folder = tmp_path / "fs" / "user.slice" / "unicum.scope"
    folder.mkdir(parents=True)
    (folder / "cgroup.subtree_control").write_text("cpu memory pids\n")
    found = places(proc, tmp_path / "fs")
    assert found == {"pids": Place(folder, "pids.max"), "memory": Place(folder, "memory.max")}


def test_v1_uses_each_controllers_hierarchy(tmp_path):
    proc = tmp_path / "cgroup"
    proc.write_text("8:pids:/\n4:memory:/api/abc\n1:cpu,cpuacct:/\n0::/\n")
    found = places(proc, tmp_path / "fs")
    assert found["pids"] == Place(tmp_path / "fs" / "pids", "pids.max")
    memory = Place(tmp_path / "fs" / "memory" / "api" / "abc", "memory.limit_in_bytes")
    assert found["memory"] == memory


def test_no_cgroup_file_means_no_places(tmp_path):
    assert places(tmp_path / "missing", tmp_path) == {}
