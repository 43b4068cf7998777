"""The network per host (allowed by config.json's `sandbox.network`, or asked of the user when
the model set `network: true`, remembered per host with `s`/`a`) and the one line a sandboxed
command's outcome gets, so the model asks instead of retrying: a host the proxy refused, the
network off, or the path it wrote is read-only."""

from __future__ import annotations

import re
from pathlib import Path

from tools.base import ToolContext, ToolError
from tools.egress import DENIED, UNLISTED, Ask, Egress
from tools.permissions import authorize
from tools.services import CommandSandbox

_NO_NETWORK = re.compile(
    r"Network is unreachable|Temporary failure in name resolution|Could not resolve host"
    r"|Name or service not known|getaddrinfo (ENOTFOUND|EAI_AGAIN)|EAI_AGAIN|ENETUNREACH"
    r"|No address associated with hostname|Failed to establish a new network connection"
    r"|nodename nor servname|Could not connect to|unable to access '[^']*': Could not"
    r"|network is unreachable|dial tcp|Address family not supported|Connection refused"
    r"|ECONNREFUSED",
)
_MISSING = re.compile(r"No such file or directory|cannot access|not found")
HOME_HIDDEN = (
    "; sandbox: your home folder is empty for commands but for toolchains (config.json "
    "sandbox.read adds paths); read_file can read a file there (the user is asked)"
)
_READ_ONLY = re.compile(r"Read-only file system|EROFS|Device or resource busy|EBUSY")
NETWORK_OFF = (
    "; sandbox: commands have no network by default (not even the host's localhost servers); "
    "if this needs it, run it again with network: true (the user is asked per host)"
)
NO_PROXY_USED = (
    "; sandbox: commands reach hosts only through Unicum's HTTP(S) proxy (HTTPS_PROXY is set); "
    "this program did not use it (raw connections, ssh, DNS lookups and the host's localhost "
    "servers are out of reach); use a client that honours HTTPS_PROXY, or ask the user"
)
REFUSED = {
    UNLISTED: (
        "; sandbox: the network proxy refused {hosts} (not allowed for this command); if it "
        "needs them, run it again with network: true (the user is asked per host)"
    ),
    DENIED: "; sandbox: {hosts} blocked by sandbox.network.deniedDomains; do not retry",
    "user": "; sandbox: the user refused the network for {hosts}; do not retry, take another way",
    "unattended": (
        "; sandbox: the network proxy refused {hosts}: nobody can approve a host in a "
        "non-interactive run (the user can rerun with --yes or allow them in "
        "sandbox.network.allowedDomains)"
    ),
}
READ_ONLY = (
    "; sandbox: only the project and /tmp are writable, and in the project .git/config, "
    ".git/hooks and the agent's configuration (.unicum/, .claude/, .mcp.json, .agents/, "
    ".codex/, AGENTS.md, CLAUDE.md) are read-only to commands; change those with "
    "edit_file/write_file (the user is asked) or ask the user"
)


def network_question(ctx: ToolContext, command: str) -> Ask:
    """The user's say on a host the rules do not name (`s`/`a`: that host from now on)."""

    def ask(host: str) -> str:
        try:
            authorize(
                ctx,
                "network",
                f"Let `{command}` reach {host}? Sandboxed commands reach only the hosts you "
                f"allow (s/a: {host} from now on).",
                host,
            )
        except ToolError as exc:
            return str(exc)
        return ""

    return ask


def open_network(
    ctx: ToolContext, sandbox: CommandSandbox, command: str, asked: bool
) -> Egress | None:
    """The command's proxy (None: it reaches no host): the hosts config allows, and when the
    model asked for the network (`network: true`) those the user approves one by one."""
    return sandbox.egress(command, network_question(ctx, command) if asked else None)


def refused_line(refused: dict[str, str]) -> str:
    """Why the proxy refused hosts, one clause the model can act on (or "")."""
    by_kind: dict[str, list[str]] = {}
    said = ""
    for host, why in refused.items():
        kind = why if why in (UNLISTED, DENIED) else "user"
        if why.startswith("refused: "):
            kind = "unattended"
        by_kind.setdefault(kind, []).append(host)
        said = why.partition(" The user says: ")[2] or said
    lines = {k: REFUSED[k].format(hosts=", ".join(hosts)) for k, hosts in by_kind.items()}
    if said:
        lines["user"] += f" (the user says: {said})"
    return "".join(lines.values())


def why_it_failed(output: str, egress: Egress | None, command: str = "", code: int = 1) -> str:
    """The sandbox's part in a command's outcome, as one clause for its status line (or ""):
    hosts its proxy refused, else (when it failed) the network, a read-only path, the home."""
    if egress is not None and egress.refused:
        return refused_line(egress.refused)
    if code == 0:
        return ""
    if _NO_NETWORK.search(output):
        return NETWORK_OFF if egress is None else NO_PROXY_USED
    if _READ_ONLY.search(output):
        return READ_ONLY
    home = str(Path.home())
    names_home = "~" in command or "$HOME" in command or home in command or home in output
    if names_home and _MISSING.search(output):
        return HOME_HIDDEN
    return ""
