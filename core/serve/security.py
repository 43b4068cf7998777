"""Who may talk to the service: a bearer token kept in the Unicum home, loopback by default,
and a cap on request bodies. The guard is plain ASGI so it runs before any route parses."""

from __future__ import annotations

import hmac
import ipaddress
import json
import os
import re
import secrets
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

TOKEN_FILE = "serve.token"
COOKIE = "unicum_token"
MAX_BODY = 1024 * 1024  # bytes; larger bodies get 413
MIN_TOKEN = 16
_TOKEN_CHARS = re.compile(rf"[A-Za-z0-9._~-]{{{MIN_TOKEN},}}")
PUBLIC = frozenset({"/openapi.json", "/assets/plotly.min.js", "/health"})
Scope = dict[str, Any]


class BindRefused(ValueError):
    """A listening address or token the service will not start with; one line for the user."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def check_bind(host: str, token: str | None) -> None:
    """Loopback needs nothing; any other interface needs a token of the caller's own."""
    if token is not None and not _TOKEN_CHARS.fullmatch(token):
        raise BindRefused(
            f"--token must be at least {MIN_TOKEN} characters of letters, digits and ._~-"
        )
    if not is_loopback(host) and token is None:
        raise BindRefused(
            f"refusing to listen on {host}: other interfaces need --host and --token "
            "(the service reads and writes your memory and ledger)"
        )


def new_token() -> str:
    return secrets.token_urlsafe(32)


def write_token(home: Path, token: str) -> Path:
    """Write the token to `<home>/serve.token`, readable by its owner only (mode 0600)."""
    home.mkdir(parents=True, exist_ok=True)
    path = home / TOKEN_FILE
    tmp = path.with_name(f".{TOKEN_FILE}.{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (token + "\n").encode("ascii"))
    finally:
        os.close(fd)
    os.replace(tmp, path)
    return path


def _header(scope: Scope, name: bytes) -> str:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return ""


def host_name(scope: Scope) -> str:
    """The Host header's name, without its port (an IPv6 literal keeps its brackets)."""
    host = _header(scope, b"host").strip().lower()
    if host.startswith("["):
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def served_hosts(bound: str, extra: list[str]) -> frozenset[str]:
    """The Host names a service bound to `bound` answers to: the loopback names, the bound
    address (unless it is every interface) and `extra` (--allow-host)."""
    names = {"localhost", "127.0.0.1", "[::1]", *(h.lower() for h in extra)}
    if bound not in ("0.0.0.0", "::", "[::]"):
        names.add(f"[{bound}]" if ":" in bound and not bound.startswith("[") else bound)
    return frozenset(names)


def _dashboard_read(scope: Scope) -> bool:
    return scope["method"] in ("GET", "HEAD") and scope["path"].startswith("/dashboard")


def _presented(scope: Scope) -> tuple[str, str]:
    """(token from the Authorization header, or from the cookie when reading the dashboard;
    token from the query string)."""
    auth = _header(scope, b"authorization")
    bearer = auth[7:].strip() if auth[:7].lower() == "bearer " else ""
    if not bearer and _dashboard_read(scope):  # the cookie never changes anything
        morsel = SimpleCookie(_header(scope, b"cookie")).get(COOKIE)
        bearer = morsel.value if morsel else ""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [""])
    return bearer, query[0]


async def _send_json(send: Any, status: int, detail: str, extra: list | None = None) -> None:
    body = json.dumps({"detail": detail}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send(
        {"type": "http.response.start", "status": status, "headers": headers + (extra or [])}
    )
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware: 401 without the token, 413 past `max_body` bytes. A browser opens the
    dashboard once with `?token=…`; it gets an HttpOnly cookie and a redirect to the bare URL."""

    def __init__(
        self, app: Any, token: str, max_body: int = MAX_BODY, hosts: frozenset[str] = frozenset()
    ) -> None:
        self.app, self.token, self.max_body = app, token.encode(), max_body
        self.hosts = hosts  # the Host names answered (a rebound DNS name gets 421); empty: any

    def _ok(self, token: str) -> bool:
        return bool(token) and hmac.compare_digest(token.encode(), self.token)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and self.hosts and host_name(scope) not in self.hosts:
            await _send_json(send, 421, f"host {host_name(scope)!r} is not served here")
            return
        if scope["type"] != "http" or scope["path"] in PUBLIC:
            await self.app(scope, receive, send)
            return
        bearer, query = _presented(scope)
        if not self._ok(bearer):
            if self._ok(query) and _dashboard_read(scope):
                await self._cookie_redirect(scope, send, query)
                return
            await _send_json(
                send,
                401,
                f"missing or wrong bearer token (it is in the Unicum home's {TOKEN_FILE})",
                [(b"www-authenticate", b"Bearer")],
            )
            return
        await self._capped(scope, receive, send)

    async def _cookie_redirect(self, scope: Scope, send: Any, token: str) -> None:
        cookie = f"{COOKIE}={token}; HttpOnly; SameSite=Strict; Path=/"
        await send(
            {
                "type": "http.response.start",
                "status": 303,
                "headers": [
                    (b"location", scope["path"].encode()),
                    (b"set-cookie", cookie.encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": b""})

    async def _capped(self, scope: Scope, receive: Any, send: Any) -> None:
        """Read the whole body first (at most max_body bytes), then hand it on."""
        declared = _header(scope, b"content-length")
        if declared.isdigit() and int(declared) > self.max_body:
            await _send_json(send, 413, f"request body over {self.max_body:,} bytes")
            return
        chunks, size, more = [], 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
            if size > self.max_body:
                await _send_json(send, 413, f"request body over {self.max_body:,} bytes")
                return
        body = b"".join(chunks)
        replayed = False

        async def replay() -> dict[str, Any]:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)
