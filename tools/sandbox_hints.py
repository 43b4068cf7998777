"""The network per command (asked, remembered with `s`/`a`, or allowed by config.json's
`sandbox.network_allow`) and the one line a sandboxed command's failure gets, so the model
asks instead of retrying: the network is off, or the path it wrote is read-only."""

from __future__ import annotations

import re
from pathlib import Path

from my_agent.shell.tokenize import parse
from my_agent.shell.words import program, strip_wrappers, subcommands
from tools.base import ToolContext
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
    "if this needs it, run it again with network: true (the user is asked)"
)
READ_ONLY = (
    "; sandbox: only the project and /tmp are writable, and in the project .git/config, "
    ".git/hooks and the agent's configuration (.unicum/, .claude/, .mcp.json, .agents/, "
    ".codex/, AGENTS.md, CLAUDE.md) are read-only to commands; change those with "
    "edit_file/write_file (the user is asked) or ask the user"
)


def command_kind(command: str) -> str:
    """What an approval for the network covers: the program and its first subcommand of the
    command's first simple command (`pip install`, `npm ci`, `git fetch`)."""
    try:
        for pipe in parse(command):
            for cmd in pipe:
                argv = strip_wrappers(cmd.argv)[1]
                if argv:
                    return " ".join([program(argv[0]), *subcommands(argv)[:1]])
    except (ValueError, RecursionError):
        pass
    return command


def grant_network(ctx: ToolContext, sandbox: CommandSandbox, command: str, asked: bool) -> bool:
    """Whether this command runs with the network: the policy or the allow-list, else when
    the model asked for it and the user approves (a refusal is a ToolError the model reads)."""
    if sandbox.network_for(command):
        return True
    if not asked:
        return False
    kind = command_kind(command)
    authorize(
        ctx,
        "network",
        f"Run `{command}` with the network? The sandbox keeps commands offline unless you allow "
        f"it (s/a: every `{kind}` command).",
        kind,
    )
    return True


def why_it_failed(output: str, network: bool, command: str = "") -> str:
    """The sandbox's part in a failed command, as one clause for its status line (or "")."""
    if not network and _NO_NETWORK.search(output):
        return NETWORK_OFF
    if _READ_ONLY.search(output):
        return READ_ONLY
    home = str(Path.home())
    names_home = "~" in command or "$HOME" in command or home in command or home in output
    if names_home and _MISSING.search(output):
        return HOME_HIDDEN
    return ""
