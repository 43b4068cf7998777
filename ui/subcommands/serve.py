"""`python cli.py serve`: memory, code map, ledger and the usage dashboard over local HTTP.

FastAPI and uvicorn are imported only here, when the subcommand runs (never for --help of the
main command or the REPL)."""

from __future__ import annotations

import argparse
import os
import socket
import sys
from pathlib import Path

DEFAULT_PORT = 8377


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="cli.py serve",
        description="Serve Unicum's memory, code map, token ledger and usage dashboard over "
        "HTTP (OpenAPI at /openapi.json). Every request needs the bearer token written to the "
        "Unicum home's serve.token.",
    )
    p.add_argument("--host", default="127.0.0.1", help="interface (default: 127.0.0.1)")
    p.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port, 0 for any (default {DEFAULT_PORT})"
    )
    p.add_argument(
        "--token",
        help="use this bearer token (required with a non-loopback --host; not written to disk): "
        "- reads it from stdin; or set UNICUM_SERVE_TOKEN (a value here would show in ps)",
    )
    p.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a Host name to answer besides the loopback names and --host (repeatable)",
    )
    return p


TOKEN_ENV = "UNICUM_SERVE_TOKEN"


def given_token(args: argparse.Namespace) -> str | None:
    """The token from stdin (`--token -`) or UNICUM_SERVE_TOKEN; None: make one. A value on
    the command line is refused: every user on the machine sees it in `ps`."""
    if args.token == "-":
        return sys.stdin.readline().strip()
    if args.token is not None:
        raise ValueError(
            f"--token VALUE shows the token to every user in ps: use --token - (stdin) or {TOKEN_ENV}"
        )
    return os.environ.get(TOKEN_ENV) or None


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only then (else keep-alive replies wait
    # ~40 ms for a delayed ACK)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host.strip("[]"), port))
    return sock


def _banner(url: str, token_path: Path | None, stores: str = "") -> str:
    if token_path is None:
        auth, token_hint = "your --token", "$TOKEN"
    else:
        auth, token_hint = f"{token_path} (mode 0600)", f"$(cat {token_path})"
    return (
        f"Unicum service on {url}  (OpenAPI: {url}/openapi.json)\n"
        f"{stores}"
        f"bearer token: {auth}\n"
        f'  curl -H "Authorization: Bearer {token_hint}" {url}/ledger/report\n'
        f'dashboard: python -m webbrowser "{url}/dashboard?token={token_hint}"\n'
        "Ctrl-C stops it."
    )


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from core.agent import task_text
    from core.ledger import ledger_path
    from core.serve import (
        BindRefused,
        Services,
        check_bind,
        create_app,
        new_token,
        served_hosts,
        write_token,
    )
    from my_agent.errors import ConfigError
    from my_agent.home import check_home, unicum_home
    from my_agent.team import database_url

    try:
        args.token = given_token(args)
        check_bind(args.host, args.token)
        home = check_home(unicum_home())
        sock = _bind(args.host, args.port)
    except (BindRefused, ConfigError, ValueError) as exc:
        print(f"unicum serve: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"unicum serve: cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    try:
        team = database_url()  # the stores the CLI uses: the team database when one is set
        services = Services(home, ledger_path(home), lambda task_id: task_text(home, task_id), team)
    except ConfigError as exc:
        sock.close()
        print(f"unicum serve: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # the team database cannot be reached
        sock.close()
        print(f"unicum serve: {exc}", file=sys.stderr)
        return 1
    token = args.token or new_token()
    token_path = None if args.token else write_token(home, token)
    app = create_app(services, token, hosts=served_hosts(args.host, args.allow_host))
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    stores = f"team database: {services.where} (ledger and project memory)\n" if team else ""
    print(_banner(f"http://{shown}:{port}", token_path, stores), flush=True)
    return _run(app, sock)


def _run(app, sock: socket.socket) -> int:
    import uvicorn

    # no access log: the dashboard's first visit carries ?token= in its URL
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    finally:
        sock.close()
    return 0
