"""The OS sandbox for `terminal` commands: bubblewrap (`bwrap`) with the whole filesystem
read-only except the workspace and a private /tmp, the user's secret folders hidden, fresh
user/PID/IPC/UTS namespaces with their own /proc, no capabilities, the network on or off.

`Sandbox.wrap(argv, cwd)` is the only entry point the shell tool uses; `Sandbox.problem` says
why commands run unsandboxed (then the permission guard asks, as before the sandbox).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import weakref
from dataclasses import dataclass
from pathlib import Path

from tools.base import ToolContext
from tools.services import CommandSandbox

MODES = ("workspace-write", "read-only", "off")
NETWORK = ("on", "off")
# the user's credential stores, relative to HOME: folders get an empty tmpfs, files /dev/null
SECRET_PATHS = (
    ".ssh",
    ".aws",
    ".config/gcloud",
    ".gnupg",
    ".netrc",
    ".docker/config.json",
    ".claude",
    ".unicum-agent",
    ".git-credentials",
    ".config/gh",
    ".kube",
    ".azure",
)
PROBE_TIMEOUT = 10


@dataclass(frozen=True)
class SandboxPolicy:
    mode: str = "workspace-write"  # workspace-write | read-only | off
    network: bool = True

    @staticmethod
    def from_settings(config: dict, mode: str | None, network: str | None) -> SandboxPolicy:
        """Flags win over config.json's `sandbox: {mode, network}`; defaults: workspace-write,
        network on. An unknown value is a ValueError naming it."""
        saved = config.get("sandbox") or {}
        if not isinstance(saved, dict):
            raise ValueError("config.json: `sandbox` must be an object {mode, network}")
        chosen = mode or saved.get("mode") or "workspace-write"
        if chosen not in MODES:
            raise ValueError(f"sandbox mode {chosen!r}: expected one of {', '.join(MODES)}")
        net = network if network is not None else saved.get("network", "on")
        if isinstance(net, bool):
            net = "on" if net else "off"
        if net not in NETWORK:
            raise ValueError(f"sandbox network {net!r}: expected on or off")
        return SandboxPolicy(chosen, net == "on")


class Sandbox:
    """One session's sandbox: the policy, the probe's verdict (made once) and a private /tmp."""

    def __init__(
        self, policy: SandboxPolicy, workspace: Path, home: Path, extra: tuple[Path, ...] = ()
    ) -> None:
        self.policy = policy
        self.workspace = workspace.resolve()
        self.extra = tuple(p.resolve() for p in extra)  # --add-dir: writable like the workspace
        self.home = home.expanduser()
        self.bwrap = shutil.which("bwrap") or ""
        self._tmp = ""
        self.problem = self._probe()  # why commands cannot be sandboxed, or ""

    @property
    def active(self) -> bool:
        """Commands run inside the sandbox (the guard then asks only what it cannot see)."""
        return self.policy.mode != "off" and not self.problem

    def _probe(self) -> str:
        if self.policy.mode == "off":
            return ""
        if not self.bwrap:
            return "bwrap not found on PATH (install the bubblewrap package)"
        argv = self.wrap(["true"], self.workspace)
        try:
            done = subprocess.run(argv, capture_output=True, timeout=PROBE_TIMEOUT)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"bwrap cannot start: {exc}"
        if done.returncode != 0:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            return f"bwrap cannot start: {lines[-1] if lines else f'exit {done.returncode}'}"
        return ""

    def private_tmp(self) -> str:
        """The session's own /tmp (a host folder removed when the session object goes)."""
        if not self._tmp:
            self._tmp = tempfile.mkdtemp(prefix="unicum-sandbox-")
            weakref.finalize(self, shutil.rmtree, self._tmp, True)
        return self._tmp

    def wrap(self, argv: list[str], cwd: Path) -> list[str]:
        """`argv` as run inside the sandbox, starting in `cwd`."""
        if self.policy.mode == "off":
            return argv
        workspace = str(self.workspace)
        bind = "--bind" if self.policy.mode == "workspace-write" else "--ro-bind"
        args = [self.bwrap or "bwrap", "--unshare-user", "--unshare-pid", "--unshare-ipc"]
        args += ["--unshare-uts", "--unshare-cgroup-try", "--cap-drop", "ALL"]
        if not self.policy.network:
            args.append("--unshare-net")
        args += ["--die-with-parent", "--new-session"]
        args += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        args += ["--bind", self.private_tmp(), "/tmp", bind, workspace, workspace]
        for folder in self.extra:
            args += [bind, str(folder), str(folder)]
        for folder in tool_folders_in_tmp():  # a venv or tool under /tmp keeps working, read-only
            args += ["--ro-bind", folder, folder]
        args += self._hide_args()
        args += ["--setenv", "TMPDIR", "/tmp", "--chdir", str(cwd), "--", *argv]
        return args

    def _hide_args(self) -> list[str]:
        """Mounts that hide the secret folders and files (those that exist and are visible)."""
        user_home = Path(os.path.expanduser("~"))
        targets = [user_home / p for p in SECRET_PATHS] + [self.home]
        args: list[str] = []
        for path in dict.fromkeys(Path(os.path.realpath(t)) for t in targets):
            if not path.exists() or not self._visible(path):
                continue
            if path.is_dir():
                args += ["--tmpfs", str(path)]
            else:
                args += ["--ro-bind", "/dev/null", str(path)]
        return args

    def _visible(self, path: Path) -> bool:
        """Under /tmp only what is in the workspace can be seen (the rest is the private /tmp);
        a folder holding the workspace is never hidden."""
        if path == self.workspace or path in self.workspace.parents:
            return False  # the workspace itself stays visible
        in_tmp = path == Path("/tmp") or Path("/tmp") in path.parents
        return not in_tmp or self.workspace in path.parents

    def describe(self) -> str:
        """One line for the start-up banner and `/tools`."""
        if self.policy.mode == "off":
            return "sandbox off"
        if self.problem:
            return f"sandbox unavailable ({self.problem})"
        return f"sandbox {self.policy.mode}, network {'on' if self.policy.network else 'off'}"


def get_sandbox(ctx: ToolContext) -> CommandSandbox | None:
    """The session's sandbox; None (a bare tool context): commands run as before, guarded."""
    return ctx.services.sandbox


def tool_folders_in_tmp(path: str | None = None) -> list[str]:
    """Folders on PATH under /tmp (the private /tmp would hide them), each widened to its
    virtual environment when it is one's `bin/`, so its interpreter finds its packages."""
    found: list[str] = []
    for entry in (os.environ.get("PATH", "") if path is None else path).split(os.pathsep):
        folder = Path(entry)
        if not entry or Path("/tmp") not in folder.parents or not folder.is_dir():
            continue
        root = folder.parent if (folder.parent / "pyvenv.cfg").is_file() else folder
        if str(root) not in found:
            found.append(str(root))
    return found
