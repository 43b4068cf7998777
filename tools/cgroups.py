"""Process and memory limits that bind root too: each sandboxed command joins a cgroup of its
own (`pids.max`, `memory.max` on cgroup v2; the pids and memory controllers' files on v1)
when Unicum's cgroups are writable. `ulimit -u` does not bind uid 0 (the kernel exempts it),
so without a writable cgroup a root session's process limit is not enforced, and says so."""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
# limit → (v2 file, v1 controller, v1 file); memory in bytes
FILES = {
    "pids": ("pids.max", "pids", "pids.max"),
    "memory": ("memory.max", "memory", "memory.limit_in_bytes"),
}
_COUNTER = itertools.count(1)


@dataclass(frozen=True)
class Place:
    """Where one limit is set: the folder new cgroups go in, and the file that holds it."""

    folder: Path
    file: str


def places(proc: Path = Path("/proc/self/cgroup"), root: Path = ROOT) -> dict[str, Place]:
    """limit → where a child of this process's cgroup can set it (only those that exist)."""
    try:
        lines = proc.read_text().splitlines()
    except OSError:
        return {}
    found: dict[str, Place] = {}
    for line in lines:
        hid, _, rest = line.partition(":")
        names, _, path = rest.partition(":")
        for limit, (v2_file, controller, v1_file) in FILES.items():
            if hid == "0" and not names:
                folder = root / path.lstrip("/")
                if controller in _delegated(folder, controller):
                    found.setdefault(limit, Place(folder, v2_file))
            elif controller in names.split(","):
                found[limit] = Place(root / names / path.lstrip("/"), v1_file)
    return found


def _orphans(folder: Path) -> list[Path]:
    """Cgroups a Unicum process that no longer runs made here (removable once empty)."""
    try:
        found = list(folder.glob("unicum-*-*"))
    except OSError:
        return []
    return [f for f in found if not _alive(f.name.split("-")[1])]


def _alive(pid: str) -> bool:
    return pid.isdigit() and Path("/proc", pid).exists()


def _delegated(folder: Path, controller: str) -> list[str]:
    """The v2 controllers children of `folder` get (enabling `controller` when the kernel
    allows it: at the root of a cgroup namespace)."""
    control = folder / "cgroup.subtree_control"
    try:
        enabled = control.read_text().split()
        if controller not in enabled:
            control.write_text(f"+{controller}")
            enabled = control.read_text().split()
    except OSError:
        return []
    return enabled


class CommandCgroups:
    """Makes one cgroup per command with the limits set, and removes them once empty."""

    def __init__(self, limits: dict[str, int]) -> None:
        self.limits = {k: v for k, v in limits.items() if v}  # pids, memory (bytes)
        self.places = {k: p for k, p in places().items() if k in self.limits}
        self._made: list[Path] = []
        for place in self.places.values():
            self._made += _orphans(place.folder)  # left by a session that was killed
        self.enforced = set(self.places) if self._works() else set()

    def _works(self) -> bool:
        made = self.create()
        self.cleanup()
        return bool(made)

    def create(self) -> list[Path]:
        """New cgroups for one command (their `cgroup.procs` is what the command joins);
        [] when none can be made."""
        self.cleanup()
        name = f"unicum-{os.getpid()}-{next(_COUNTER)}"
        made: list[Path] = []
        for limit, place in self.places.items():
            folder = place.folder / name
            try:
                folder.mkdir()
                self._made.append(folder)
                (folder / place.file).write_text(str(self.limits[limit]))
            except OSError:
                return []
            made.append(folder)
        return made

    def cleanup(self) -> None:
        """Remove the cgroups of commands that ended (a busy one waits for the next call)."""
        kept = []
        for folder in self._made:
            try:
                folder.rmdir()
            except FileNotFoundError:
                pass
            except OSError:
                kept.append(folder)
        self._made = kept
