"""Which MCP servers a session starts: `.mcp.json` in the project (Claude Code's file) and
`mcpServers` in the Unicum home's config.json, in Claude Code's shape (`command`, `args`, `env`
for a stdio server; `url`, `headers` for a streamable-HTTP one). The project's entry wins."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from my_agent.capped import CONFIG, read_capped_text
from my_agent.files import atomic_write
from my_agent.home import unicum_home
from my_agent.trust import extensions_allowed

PROJECT_FILE = ".mcp.json"
CONFIG_KEY = "mcpServers"
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_NAME = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class ServerConfig:
    name: str
    source: str  # "project" (.mcp.json) | "user" (config.json) | "flag" (--mcp-config)
    command: str = ""
    args: tuple[str, ...] = ()
    env: dict[str, str] = field(default_factory=dict)
    url: str = ""
    headers: dict[str, str] = field(default_factory=dict)
    timeout: float | None = None  # seconds a call may take (None: the session's default)
    sse: bool = False  # `"type": "sse"`: the older HTTP+SSE transport

    @property
    def transport(self) -> str:
        return "sse" if self.sse else "http" if self.url else "stdio"

    @property
    def target(self) -> str:
        return self.url or " ".join([self.command, *self.args])


def project_config_allowed(workspace: Path) -> bool:
    """May this folder's own `.mcp.json` start servers? Only a folder the user trusted (and
    remembered: a one-run `--trust` does not start a project's servers)."""
    return extensions_allowed(workspace)


def safe_name(text: str) -> str:
    """A name fit for a tool name on every provider: letters, digits, `_` and `-`."""
    return _NAME.sub("_", text) or "_"


def _expand(value: str) -> str:
    """`${VAR}` and `${VAR:-default}` from the environment, as Claude Code expands them."""
    return _VAR.sub(lambda m: os.environ.get(m.group(1), m.group(2) or ""), value)


def _strings(value: Any, what: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ValueError(f"{what} must be an object")
    return {str(k): _expand(str(v)) for k, v in value.items()}


def parse_server(name: str, raw: Any, source: str) -> ServerConfig:
    """One entry of `mcpServers`; ValueError names what is wrong with it."""
    if not isinstance(raw, dict):
        raise ValueError("must be an object")
    kind = str(raw.get("type") or ("http" if raw.get("url") else "stdio"))
    if kind in ("http", "streamable-http", "streamable_http", "sse"):
        if not isinstance(raw.get("url"), str) or not raw["url"]:
            raise ValueError(f"an {kind.upper() if kind == 'sse' else 'HTTP'} server needs a `url`")
        url, command = _expand(raw["url"]), ""
    elif kind == "stdio":
        if not isinstance(raw.get("command"), str) or not raw["command"]:
            raise ValueError("a stdio server needs a `command`")
        url, command = "", _expand(raw["command"])
    else:
        raise ValueError(f"unknown type {kind!r}")
    args = raw.get("args") or []
    if not isinstance(args, list):
        raise ValueError("`args` must be a list")
    timeout = raw.get("timeout")
    return ServerConfig(
        name=name,
        source=source,
        command=command,
        args=tuple(_expand(str(a)) for a in args),
        env=_strings(raw.get("env"), "`env`"),
        url=url,
        headers=_strings(raw.get("headers"), "`headers`"),
        timeout=float(timeout) if isinstance(timeout, int | float) and timeout > 0 else None,
        sse=kind == "sse",
    )


def _read_json(path: Path) -> dict[str, Any]:
    data = json.loads(read_capped_text(path, CONFIG))
    if not isinstance(data, dict):
        raise ValueError("must hold a JSON object")
    return data


def _entries(path: Path, source: str, warn: Callable[[str], None]) -> list[ServerConfig]:
    if not path.exists():
        return []
    try:
        servers = _read_json(path).get(CONFIG_KEY) or {}
        if not isinstance(servers, dict):
            raise ValueError(f"`{CONFIG_KEY}` must be an object")
    except (OSError, ValueError) as exc:
        warn(f"MCP servers in {path} not loaded: {getattr(exc, 'why', exc)}")
        return []
    found: list[ServerConfig] = []
    for name, raw in servers.items():
        try:
            found.append(parse_server(str(name), raw, source))
        except ValueError as exc:
            warn(f"MCP server '{name}' in {path} skipped: {exc}")
    return found


def load_servers(
    workspace: Path,
    home: Path | None = None,
    warn: Callable[[str], None] = lambda _: None,
    flag_configs: tuple[str, ...] = (),
    strict: bool = False,
    keep: Callable[[ServerConfig], bool] = lambda _: True,
) -> list[ServerConfig]:
    """The servers to start, by name: the user's, then the project's (it wins on a clash),
    then `--mcp-config` files or JSON texts (they win); `strict` (`--strict-mcp-config`): only
    those."""
    home = home or unicum_home()
    found: dict[str, ServerConfig] = {}
    if not strict:
        found = {s.name: s for s in _entries(home / "config.json", "user", warn)}
        if project_config_allowed(workspace):
            found.update({s.name: s for s in _entries(workspace / PROJECT_FILE, "project", warn)})
    found = {name: s for name, s in found.items() if keep(s)}  # a project's answered no: out
    for config in flag_configs:
        found.update({s.name: s for s in _flag_entries(config, workspace, warn)})
    return [found[name] for name in sorted(found)]


def _flag_entries(config: str, workspace: Path, warn: Callable[[str], None]) -> list[ServerConfig]:
    """One `--mcp-config` value: a JSON file (from the project folder) or a JSON text."""
    if config.lstrip().startswith("{"):
        try:
            servers = json.loads(config).get(CONFIG_KEY) or {}
            return [parse_server(str(n), raw, "flag") for n, raw in servers.items()]
        except (ValueError, AttributeError) as exc:
            warn(f"--mcp-config: not loaded: {exc}")
            return []
    path = Path(config).expanduser()
    path = path if path.is_absolute() else workspace / path
    if not path.is_file():
        warn(f"--mcp-config {config}: no such file")
        return []
    return _entries(path, "flag", warn)


def config_file(scope: str, workspace: Path, home: Path | None = None) -> Path:
    """Where `unicum mcp add|remove` writes: config.json (user) or the project's .mcp.json."""
    return (
        workspace / PROJECT_FILE if scope == "project" else (home or unicum_home()) / "config.json"
    )


def edit_servers(path: Path, change: Callable[[dict[str, Any]], bool]) -> bool:
    """Apply `change` to the file's `mcpServers` (other keys kept); False: nothing changed."""
    data = _read_json(path) if path.is_file() else {}
    servers = data.get(CONFIG_KEY)
    servers = dict(servers) if isinstance(servers, dict) else {}
    if not change(servers):
        return False
    data[CONFIG_KEY] = servers
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, (json.dumps(data, indent=2) + "\n").encode())
    return True
