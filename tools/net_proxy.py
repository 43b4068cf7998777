"""One connection through the egress proxy: an HTTP `CONNECT host:port` (HTTPS, or any TCP a
client tunnels) or a plain-HTTP request in absolute form (`GET http://host/path`), the host
decided by the caller before anything is connected; a refused host gets a 403 whose body is
the one line the command shows. Only the standard library: it runs in Unicum's process."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable
from urllib.parse import urlsplit

from tools.net_bridge import copy_until_done as _copy

HEAD_LIMIT = 64 * 1024
CONNECT_TIMEOUT = 15
HOP_HEADERS = ("proxy-connection", "proxy-authorization", "connection", "keep-alive")

Decide = Callable[[str, int], str]  # (host, port) -> "" (go ahead) or why not, one line
Resolve = Callable[[str, int], tuple[str, int]]  # (host, port) -> the address to connect


class BadRequest(Exception):
    pass


def serve(client: socket.socket, decide: Decide, resolve: Resolve) -> None:
    """Handle one client connection to its end (closing both sides)."""
    try:
        head, rest = _read_head(client)
        method, host, port, head = parse(head)
    except (BadRequest, OSError, UnicodeDecodeError) as exc:
        _reply(client, 400, f"unicum sandbox proxy: bad request ({exc})")
        return
    why = decide(host, port)
    if why:
        _reply(client, 403, why)
        return
    try:
        upstream = socket.create_connection(resolve(host, port), timeout=CONNECT_TIMEOUT)
    except OSError as exc:
        _reply(client, 502, f"unicum sandbox proxy: cannot connect to {host}:{port} ({exc})")
        return
    upstream.settimeout(None)
    with upstream:
        if method == "CONNECT":
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        else:
            upstream.sendall(head + rest)
        _pipe(client, upstream)
    client.close()


def parse(head: bytes) -> tuple[str, str, int, bytes]:
    """(method, host, port, the head to send upstream) of a proxy request."""
    first, _, headers = head.partition(b"\r\n")
    parts = first.decode("latin-1").split()
    if len(parts) != 3 or not parts[2].startswith("HTTP/"):
        raise BadRequest("not an HTTP request line")
    method, target, version = parts
    if method.upper() == "CONNECT":
        host, port = _authority(target, 443)
        return "CONNECT", host, port, b""
    url = urlsplit(target)
    if url.scheme.lower() != "http" or not url.hostname:
        raise BadRequest(f"expected CONNECT or an http:// URL, got {target[:80]!r}")
    host, port = url.hostname, url.port or 80
    path = (url.path or "/") + (f"?{url.query}" if url.query else "")
    kept = [
        line
        for line in headers.split(b"\r\n")
        if line and line.split(b":", 1)[0].strip().lower().decode("latin-1") not in HOP_HEADERS
    ]
    lines = [f"{method} {path} {version}".encode("latin-1"), *kept, b"Connection: close"]
    return method, host, port, b"\r\n".join(lines) + b"\r\n\r\n"


def _authority(target: str, default: int) -> tuple[str, int]:
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        return target.strip("[]"), default
    return host.strip("[]"), int(port)


def _read_head(client: socket.socket) -> tuple[bytes, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = client.recv(65536)
        if not chunk:
            raise BadRequest("the connection closed before the request ended")
        data += chunk
        if len(data) > HEAD_LIMIT:
            raise BadRequest("request head over 64 KB")
    head, _, rest = data.partition(b"\r\n\r\n")
    return head, rest


def _reply(client: socket.socket, status: int, line: str) -> None:
    reason = {400: "Bad Request", 403: "Forbidden", 502: "Bad Gateway"}[status]
    body = (line + "\n").encode("utf-8")
    head = (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: text/plain; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    try:
        client.sendall(head.encode("latin-1") + body)
    except OSError:
        pass
    client.close()


def _pipe(a: socket.socket, b: socket.socket) -> None:
    """Copy both ways until either side is done (half-closes passed on)."""
    back = threading.Thread(target=_copy, args=(b, a), daemon=True)
    back.start()
    _copy(a, b)
    back.join()
