"""Which hosts sandboxed commands may reach through Unicum's egress proxy: config.json's
`sandbox.network` in Claude Code's shape (`allowedDomains`, `deniedDomains`: `example.com`,
`*.example.com` for its subdomains, an optional `:port`), or `"on"` (every host) / `"off"`
(only the allowed ones; the rest asked); `hosts` names addresses the proxy uses for a name
instead of looking it up, as /etc/hosts does (a local mirror)."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass, field

ALLOW, DENY, ASK = "allow", "deny", "ask"
KEYS = ("mode", "allowedDomains", "deniedDomains", "hosts")
# Claude Code's other keys there, read and left alone: commands always bind their own loopback,
# no host Unix socket is let in, and the proxy is always Unicum's
CLAUDE_KEYS = (
    "allowLocalBinding",
    "allowUnixSockets",
    "allowAllUnixSockets",
    "allowManagedDomainsOnly",
    "httpProxyPort",
    "socksProxyPort",
)


@dataclass(frozen=True)
class NetworkRules:
    every_host: bool = False  # "on": any host, unasked
    allowed: tuple[str, ...] = ()
    denied: tuple[str, ...] = ()
    hosts: dict[str, str] = field(default_factory=dict)  # name → address, as /etc/hosts

    @staticmethod
    def parse(value: object) -> NetworkRules:
        """`"on"`, `"off"`, a bool, or an object {mode, allowedDomains, deniedDomains, hosts};
        a bad value is a ValueError naming it."""
        if value is None or isinstance(value, (bool, str)):
            return NetworkRules(every_host=_mode(value))
        if not isinstance(value, dict):
            raise ValueError("config.json: `sandbox.network` must be on, off or an object")
        unknown = sorted(set(value) - set(KEYS) - set(CLAUDE_KEYS))
        if unknown:
            raise ValueError(
                f"config.json: `sandbox.network` has no {', '.join(unknown)} "
                f"(known: {', '.join(KEYS)})"
            )
        hosts = value.get("hosts") or {}
        if not isinstance(hosts, dict) or not all(_is_address(v) for v in hosts.values()):
            raise ValueError("config.json: `sandbox.network.hosts` must map names to IP addresses")
        return NetworkRules(
            _mode(value.get("mode")),
            _patterns(value, "allowedDomains"),
            _patterns(value, "deniedDomains"),
            {str(k).lower(): str(v) for k, v in hosts.items()},
        )

    def with_mode(self, flag: str | None) -> NetworkRules:
        """`--sandbox-network on|off` over the configured mode."""
        if flag is None:
            return self
        return NetworkRules(_mode(flag), self.allowed, self.denied, self.hosts)

    def decide(self, host: str, port: int) -> str:
        """ALLOW, DENY (denied in config: never asked) or ASK for `host:port`."""
        if any(matches(p, host, port) for p in self.denied):
            return DENY
        if self.every_host or any(matches(p, host, port) for p in self.allowed):
            return ALLOW
        return ASK

    def joined(self, other: NetworkRules) -> NetworkRules:
        """Both lists of domains and both host tables (this one's addresses win)."""
        return NetworkRules(
            self.every_host or other.every_host,
            self.allowed + other.allowed,
            self.denied + other.denied,
            {**other.hosts, **self.hosts},
        )

    @property
    def mode(self) -> str:
        return "on" if self.every_host else "off"


def matches(pattern: str, host: str, port: int) -> bool:
    """`example.com` that host; `*.example.com` its subdomains; `…:443` that port only."""
    name, _, want = pattern.lower().rpartition(":") if _has_port(pattern) else (pattern, "", "")
    name = name.lower().strip("[]")
    if want and want != str(port):
        return False
    host = host.lower().rstrip(".")
    if name.startswith("*."):
        return host.endswith(name[1:])
    return host == name


def _has_port(pattern: str) -> bool:
    head, sep, tail = pattern.rpartition(":")
    return bool(sep) and tail.isdigit() and (head.count(":") == 0 or head.endswith("]"))


def _mode(value: object) -> bool:
    if value is None:
        return False
    if isinstance(value, bool):
        return value
    if value not in ("on", "off"):
        raise ValueError(f"sandbox network {value!r}: expected on or off")
    return value == "on"


def _patterns(saved: dict, key: str) -> tuple[str, ...]:
    value = saved.get(key) or []
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ValueError(f"config.json: `sandbox.network.{key}` must be a list of domains")
    return tuple(v.strip() for v in value)


def _is_address(value: object) -> bool:
    try:
        ipaddress.ip_address(str(value))
    except ValueError:
        return False
    return True
