"""`unicum mcp add|list|remove`: the MCP servers in config.json (`--scope user`, the default)
or the project's .mcp.json (`--scope project`), in Claude Code's shape."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="unicum mcp", description="The MCP servers Unicum starts.")
    p.add_argument("--dir", default=".", help="project folder (default: .)")
    sub = p.add_subparsers(dest="command", required=True)
    add = sub.add_parser("add", help="add a server: NAME COMMAND [ARGS...] or NAME URL")
    add.add_argument("--scope", choices=["user", "project"], default="user")
    add.add_argument("--transport", choices=["stdio", "http"], help="default: http for a URL")
    add.add_argument("-e", "--env", action="append", default=[], metavar="KEY=VALUE")
    add.add_argument("-H", "--header", action="append", default=[], metavar="'NAME: VALUE'")
    add.add_argument("name")
    add.add_argument("target", metavar="COMMAND_OR_URL")
    add.add_argument("args", nargs=argparse.REMAINDER)
    sub.add_parser("list", help="the configured servers")
    remove = sub.add_parser("remove", help="remove a server")
    remove.add_argument("--scope", choices=["user", "project"])
    remove.add_argument("name")
    return p


def _pairs(items: list[str], sep: str, what: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for item in items:
        key, ok, value = item.partition(sep)
        if not ok or not key.strip():
            raise ValueError(f"{what} {item!r}: expected KEY{sep}VALUE")
        found[key.strip()] = value.strip() if sep == ":" else value
    return found


def entry(args: argparse.Namespace) -> dict[str, Any]:
    """The config entry `add` writes (ValueError: a malformed -e or -H)."""
    http = args.transport == "http" or (
        args.transport is None and args.target.startswith(("http://", "https://"))
    )
    if http:
        raw: dict[str, Any] = {"type": "http", "url": args.target}
        if args.header:
            raw["headers"] = _pairs(args.header, ":", "header")
        return raw
    raw = {"command": args.target, "args": [a for a in args.args if a != "--"]}
    if args.env:
        raw["env"] = _pairs(args.env, "=", "variable")
    return raw


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from core.mcp import config_file, edit_servers, load_servers, parse_server

    workspace = Path(args.dir).expanduser().resolve()
    try:
        if args.command == "list":
            warnings: list[str] = []
            servers = load_servers(workspace, warn=warnings.append)
            for line in warnings:
                print(f"warning: {line}", file=sys.stderr)
            for s in servers:
                print(f"{s.name}\t{s.transport}\t{s.target}\t({s.source})")
            if not servers:
                print("no MCP servers configured")
            return 0
        if args.command == "add":
            raw = entry(args)
            parse_server(args.name, raw, args.scope)  # refuse what a session would skip
            path = config_file(args.scope, workspace)
            edit_servers(path, lambda servers: servers.update({args.name: raw}) is None)
            print(f"added MCP server '{args.name}' to {path}")
            return 0
        scopes = [args.scope] if args.scope else ["project", "user"]
        for scope in scopes:
            path = config_file(scope, workspace)
            if path.is_file() and edit_servers(path, lambda s: s.pop(args.name, None) is not None):
                print(f"removed MCP server '{args.name}' from {path}")
                return 0
        print(f"unicum mcp: no server named '{args.name}'", file=sys.stderr)
        return 1
    except BrokenPipeError:  # `… | head`: the reader left; cli.main exits quietly
        raise
    except (OSError, ValueError) as exc:
        print(f"unicum mcp: {exc}", file=sys.stderr)
        return 2
