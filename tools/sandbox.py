"""The OS sandbox for `terminal` commands: bubblewrap (`bwrap`) with the whole filesystem
read-only except the workspace and a private /tmp; the home empty but for the toolchains
(deny-by-default reads), the git metadata and the agent's configuration read-only, daemon
sockets hidden (tools/sandbox_mounts.py); fresh user/PID/IPC/UTS namespaces with their own
/proc, no capabilities, always their own network namespace (hosts reached only through
Unicum's egress proxy, tools/egress.py, for the domains allowed or approved), a seccomp
filter on socket families (tools/seccomp.py) and limits on processes, memory and file size.

`Sandbox.egress(command, ask)` then `Sandbox.wrap(argv, cwd, egress)` are what the shell tool
uses; `Sandbox.problem` says why commands run unsandboxed (then the permission guard asks).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import weakref
from dataclasses import dataclass, field
from pathlib import Path

from tools import net_bridge, seccomp
from tools.base import ToolContext
from tools.cgroups import CommandCgroups
from tools.egress import Ask, Egress
from tools.held_dirs import HeldDir
from tools.net_rules import NetworkRules
from tools.sandbox_mounts import git_args, home_args, inside, protected_args, socket_args
from tools.services import CommandSandbox

MODES = ("workspace-write", "read-only", "off")
# the user's credential stores, relative to HOME: folders get an empty tmpfs, files /dev/null
# (the home is already empty in the sandbox; these matter when the workspace holds the home)
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
    ".npmrc",
    ".pypirc",
    ".pgpass",
    ".bash_history",
    ".zsh_history",
    ".python_history",
    ".psql_history",
    ".codex",
    ".config/git/credentials",
)
PIDS, MEMORY_MB, FILE_MB = 4096, 0, 4096  # per command; memory 0: three quarters of the RAM
PROBE_TIMEOUT = 10
NO_BRIDGE = (
    "sandbox: no python3 outside your home for the network bridge, so commands reach no host "
    "(install python3 for the system)"
)
PIDS_NOT_ENFORCED = (
    "sandbox: the process limit is not enforced (root is exempt from ulimit -u and no cgroup "
    "is writable here)"
)
PROXY_SOCKET, PROXY_PORT = "/tmp/.unicum-proxy.sock", 3128  # inside the sandbox
NO_PROXY = "localhost,127.0.0.1,::1"


@dataclass(frozen=True)
class SandboxPolicy:
    mode: str = "workspace-write"  # workspace-write | read-only | off
    net: NetworkRules = field(default_factory=NetworkRules)  # the hosts commands may reach
    network_allow: tuple[str, ...] = ()  # command prefixes that reach every host unasked
    read: tuple[str, ...] = ()  # more paths under HOME commands may read
    limits: dict[str, int] = field(default_factory=dict)  # pids, memory_mb, file_mb

    @staticmethod
    def from_settings(config: dict, mode: str | None, network: str | None) -> SandboxPolicy:
        """Flags win over config.json's `sandbox: {mode, network, network_allow, read,
        limits}`; defaults: workspace-write, network off. A bad value is a ValueError naming it."""
        saved = config.get("sandbox") or {}
        if not isinstance(saved, dict):
            raise ValueError("config.json: `sandbox` must be an object {mode, network, ...}")
        chosen = mode or saved.get("mode") or "workspace-write"
        if chosen not in MODES:
            raise ValueError(f"sandbox mode {chosen!r}: expected one of {', '.join(MODES)}")
        net = NetworkRules.parse(saved.get("network")).with_mode(network)
        lists = {k: _strings(saved, k) for k in ("network_allow", "read")}
        limits = saved.get("limits") or {}
        if not isinstance(limits, dict) or not all(
            isinstance(v, int) and v >= 0 for v in limits.values()
        ):
            raise ValueError(
                "config.json: `sandbox.limits` must map pids/memory_mb/file_mb to numbers"
            )
        return SandboxPolicy(chosen, net, lists["network_allow"], lists["read"], limits)

    @property
    def network(self) -> bool:
        """Every host is reachable for every command (`network: on`)."""
        return self.net.every_host

    def network_for(self, command: str) -> bool:
        """Every host, unasked: the network is on, or the command starts with an allowed prefix."""
        words = command.split()
        return self.network or any(
            words[: len(p.split())] == p.split() for p in self.network_allow if p.split()
        )


def _strings(saved: dict, key: str) -> tuple[str, ...]:
    value = saved.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"config.json: `sandbox.{key}` must be a list of strings")
    return tuple(value)


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
        self._held: dict[str, HeldDir] = {}  # host folders by kind, removed when it goes
        self._filters: dict[bool, str] = {}
        self.bridge_python = bridge_python(Path.home())
        self.cgroups = CommandCgroups(self._cgroup_limits() if policy.mode != "off" else {})
        weakref.finalize(self, self.cgroups.cleanup)
        self.problem = self._probe()  # why commands cannot be sandboxed, or ""

    def finished(self) -> None:
        """A command ended: its cgroups go (its last processes die with its namespace)."""
        self.cgroups.cleanup(wait=0.5)

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
        finally:
            self.finished()
        if done.returncode != 0:
            lines = done.stderr.decode("utf-8", "replace").strip().splitlines()
            return f"bwrap cannot start: {lines[-1] if lines else f'exit {done.returncode}'}"
        return ""

    def private_tmp(self) -> str:
        """The session's own /tmp (a host folder removed when the session object goes)."""
        return self._held_path("")

    def egress(self, command: str, ask: Ask | None) -> Egress | None:
        """The proxy for one command, or None when it reaches no host at all: every host for
        the policy or an allowed prefix; the configured ones (and, with `ask`, those the user
        approves) otherwise."""
        rules = self.policy.net
        if self.policy.network_for(command):
            rules = NetworkRules(True, rules.allowed, rules.denied, rules.hosts)
        elif ask is None and not rules.allowed:
            return None
        if not self.bridge_python:
            return None
        return Egress(Path(self._private_dir()), rules, ask)

    def wrap(self, argv: list[str], cwd: Path, egress: Egress | None = None) -> list[str]:
        """`argv` as run inside the sandbox, starting in `cwd`; always in its own network
        namespace (a loopback, nothing else); with `egress`, the proxy's socket bound in and
        the bridge to it started on 127.0.0.1 before the command."""
        if self.policy.mode == "off":
            return argv
        workspace = self.workspace
        writable = self.policy.mode == "workspace-write"
        bind = "--bind" if writable else "--ro-bind"
        args = [self.bwrap or "bwrap", "--unshare-user", "--unshare-pid", "--unshare-ipc"]
        args += ["--unshare-uts", "--unshare-cgroup-try", "--cap-drop", "ALL", "--unshare-net"]
        args += ["--die-with-parent", "--new-session"]
        args += ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]
        args += ["--bind", self.private_tmp(), "/tmp"]
        for folder in tool_folders_in_tmp():  # a venv or tool under /tmp keeps working, read-only
            args += ["--ro-bind", folder, folder]
        args += socket_args(workspace)
        home = home_args(Path.home(), workspace, list(self.policy.read))
        args += home + [bind, str(workspace), str(workspace)]
        for folder in self.extra:  # --add-dir: writable like the workspace
            args += [bind, str(folder), str(folder)]
        args += self._hide_args(home_hidden=bool(home))
        args += git_args(workspace, writable) + protected_args(workspace)
        args += ["--setenv", "TMPDIR", "/tmp"]
        if egress is not None:
            args, argv = args + self._proxy_args(egress), self._bridged(argv)
        filter_file = self._filter(egress is not None)
        if filter_file:
            args += ["--seccomp", "9"]
        args += ["--chdir", str(cwd), "--", *argv]
        limits = self._ulimits() + "".join(
            f"echo $$ > {shlex.quote(str(folder / 'cgroup.procs'))} 2>/dev/null; "
            for folder in self.cgroups.create()
        )
        redirect = ' 9<"$0"' if filter_file else ""
        return ["bash", "-c", f'{limits}exec "$@"{redirect}', filter_file or "-", *args]

    def _proxy_args(self, egress: Egress) -> list[str]:
        """The proxy's socket bound in, and the variables that point clients at the bridge."""
        args = ["--ro-bind", egress.socket_path, PROXY_SOCKET]
        for name, value in proxy_env().items():
            args += ["--setenv", name, value]
        return args

    def _bridged(self, argv: list[str]) -> list[str]:
        """`argv` run by the bridge once it listens on the sandbox's 127.0.0.1:PROXY_PORT."""
        python = [self.bridge_python, "-I", "-S", "-c", _bridge_source()]
        return [*python, PROXY_SOCKET, str(PROXY_PORT), "--", *argv]

    def _filter(self, network: bool) -> str:
        """The compiled seccomp program for this network setting, in a folder commands cannot
        see (written once per session); "" where there is none for this machine."""
        if not seccomp.supported():
            return ""
        if network not in self._filters:
            path = Path(self._private_dir(), f"net-{int(network)}.bpf")
            path.write_bytes(seccomp.program(network))
            self._filters[network] = str(path)
        return self._filters[network]

    def _private_dir(self) -> str:
        """A host folder commands cannot see: the seccomp programs, the proxy's sockets."""
        return self._held_path("private-")

    def _held_path(self, kind: str) -> str:
        if kind not in self._held:
            self._held[kind] = HeldDir(kind)
        return str(self._held[kind].path)

    def _cgroup_limits(self) -> dict[str, int]:
        memory = self.policy.limits.get("memory_mb", MEMORY_MB) or _ram_mb() * 3 // 4
        return {"pids": self.policy.limits.get("pids", PIDS), "memory": memory * 1024 * 1024}

    @property
    def notes(self) -> list[str]:
        """What the user should know about this sandbox at start-up (one line each)."""
        if not self.active:
            return []
        notes = [] if self.bridge_python else [NO_BRIDGE]
        if os.geteuid() == 0 and "pids" not in self.cgroups.enforced:
            notes.append(PIDS_NOT_ENFORCED)
        return notes

    def _ulimits(self) -> str:
        """`ulimit` settings for the command: processes, data memory (KiB), file size (KiB)."""
        limits = self.policy.limits
        memory = limits.get("memory_mb", MEMORY_MB) or _ram_mb() * 3 // 4
        settings = (
            ("-u", limits.get("pids", PIDS)),
            ("-d", memory * 1024),
            ("-f", limits.get("file_mb", FILE_MB) * 1024),
        )
        return "".join(f"ulimit {flag} {value} 2>/dev/null; " for flag, value in settings if value)

    def _hide_args(self, home_hidden: bool) -> list[str]:
        """Mounts that hide the secret folders and files (those that exist and are visible:
        under an emptied home only those in the workspace)."""
        user_home = Path(os.path.realpath(Path.home()))
        targets = [user_home / p for p in SECRET_PATHS] + [self.home]
        args: list[str] = []
        for path in dict.fromkeys(Path(os.path.realpath(t)) for t in targets):
            if not path.exists() or not self._visible(path):
                continue
            if home_hidden and inside(path, user_home) and not inside(path, self.workspace):
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
        network = "every host" if self.policy.network else "off (asked per host)"
        limits = "cgroup" if "pids" in self.cgroups.enforced else "ulimit"
        limits += ", not enforced for root" if PIDS_NOT_ENFORCED in self.notes else ""
        return f"sandbox {self.policy.mode}, network {network}, process limit by {limits}"


def proxy_env() -> dict[str, str]:
    """What points a command's HTTP clients (curl, pip, npm, git, cargo, go) at the bridge;
    the sandbox's own loopback is reached directly."""
    url = f"http://127.0.0.1:{PROXY_PORT}"
    names = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "npm_config_proxy")
    names += ("npm_config_https_proxy", "YARN_HTTP_PROXY", "YARN_HTTPS_PROXY")
    env = {name: url for name in names} | {name.lower(): url for name in names[:3]}
    return env | {"NO_PROXY": NO_PROXY, "no_proxy": NO_PROXY, "npm_config_noproxy": NO_PROXY}


def bridge_python(home: Path) -> str:
    """An interpreter commands can run (not under the emptied home): this one, else python3."""
    for candidate in (sys.executable, shutil.which("python3") or "", "/usr/bin/python3"):
        real = Path(os.path.realpath(candidate)) if candidate else None
        if real and real.is_file() and not inside(real, Path(os.path.realpath(home))):
            return candidate
    return ""


def _bridge_source() -> str:
    return Path(net_bridge.__file__).read_text(encoding="utf-8")


def _ram_mb() -> int:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1024 * 1024)
    except (ValueError, OSError):
        return 0


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
