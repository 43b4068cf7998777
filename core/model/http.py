"""One streaming POST with httpx2 (the HTTP client both provider SDKs are built on) and our
own SSE reading: no SDK is imported on a request's way.

The client is configured as the SDKs configure theirs (connection limits, redirects
followed, TCP keep-alive, proxies from the environment) and each request carries the SDK's
headers (`WireAdapter.headers`), so what goes on the wire is what the SDK sent. Failures are
raised as the SDKs raise them, with the same messages, bodies and statuses, so
`core.model.retry.classify` reads them alike: `HttpStatusError` for an error status,
`ConnectionFailed` and `TimedOut` wrapping the transport's own error (its chain says why),
`core.model.sse.StreamFailed` for an error event inside a stream."""

from __future__ import annotations

import json
import socket
import threading
import urllib.request
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx2

MAX_CONNECTIONS, MAX_KEEPALIVE = 1000, 100  # the SDKs' limits
CONNECT_TIMEOUT = 15.0  # seconds at most to connect, whatever the read timeout

# TCP keep-alive probes every minute, as the Anthropic SDK sets (a long silent reply such as
# a model's thinking must not look like a dead connection to a router in between)
KEEPALIVE = [
    (socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1),
    *[
        (socket.IPPROTO_TCP, option, value)
        for name, value in (("TCP_KEEPINTVL", 60), ("TCP_KEEPCNT", 5), ("TCP_KEEPIDLE", 60))
        if (option := getattr(socket, name, None)) is not None
    ],
]


class HttpStatusError(Exception):
    """The server answered with an error status: its body (JSON when it is JSON) and the
    SDK's message for it, `Error code: 429 - {...}`."""

    def __init__(self, response: httpx2.Response) -> None:
        text = response.text.strip()
        body: Any = text
        try:
            body = json.loads(text)
            message = f"Error code: {response.status_code} - {body}"
        except ValueError:
            message = text or f"Error code: {response.status_code}"
        super().__init__(message)
        self.message = message
        self.body = body
        self.response = response  # its headers carry `retry-after`
        self.status_code = response.status_code


class ConnectionFailed(ConnectionError):
    """The request could not be sent or its reply stopped arriving; the cause is chained."""

    def __init__(self, message: str = "Connection error.") -> None:
        super().__init__(message)
        self.message = message


class TimedOut(TimeoutError):
    def __init__(self, message: str = "Request timed out.") -> None:
        super().__init__(message)
        self.message = message


EventReader = Callable[[Iterable[bytes], int], Iterator[Any]]


class HttpSender:
    """POSTs bodies to one endpoint with fixed headers and reads the events streamed back."""

    def __init__(
        self,
        url: str,
        headers: list[tuple[str, str]],
        read_events: EventReader,
        timeout: float,
    ) -> None:
        self.timeout = httpx2.Timeout(timeout, connect=min(timeout, CONNECT_TIMEOUT))
        self.client = http_client(url, self.timeout)
        self.url = httpx2.URL(url)
        # httpx2's own first (Host goes before them), then the wire's, as the SDK's client
        own = [(k.decode(), v.decode()) for k, v in self.client.headers.raw]
        self.headers = [(k, v) for k, v in own if k.lower() in _TRANSPORT_DEFAULTS] + headers
        self.read_events = read_events
        self._extensions = {"timeout": self.timeout.as_dict()}

    @contextmanager
    def events(self, body: bytes) -> Iterator[Iterator[Any]]:
        """The reply's events; leaving the block (Ctrl-C too) closes the response."""
        request = httpx2.Request(
            "POST", self.url, headers=self.headers, content=body, extensions=self._extensions
        )
        try:
            response = self.client.send(request, stream=True)
        except httpx2.TimeoutException as err:
            raise TimedOut() from err
        except Exception as err:  # as the SDKs: whatever kept the request from going out
            raise ConnectionFailed() from err
        try:
            if response.is_error:
                response.read()
                raise HttpStatusError(response) from None
            yield self.read_events(_chunks(response), response.status_code)
        finally:
            response.close()


_TRANSPORT_DEFAULTS = ("accept-encoding", "connection")  # what httpx2 itself adds


def _chunks(response: httpx2.Response) -> Iterator[bytes]:
    """The body as it arrives (decompressed), transport failures raised as the SDK's."""
    try:
        yield from response.iter_bytes()
    except httpx2.TimeoutException as err:
        raise TimedOut() from err
    except httpx2.TransportError as err:
        raise ConnectionFailed() from err


def http_client(base_url: str, timeout: httpx2.Timeout) -> httpx2.Client:
    """A client as the SDKs build theirs. A plain-HTTP endpoint (a local server) gets no TLS
    set-up until a redirect asks for HTTPS: loading the certificate store is most of a
    client's start-up."""
    limits = httpx2.Limits(max_connections=MAX_CONNECTIONS, max_keepalive_connections=MAX_KEEPALIVE)
    options: dict[str, Any] = {"timeout": timeout, "limits": limits, "follow_redirects": True}
    if _proxies():  # httpx2 mounts them (and honours NO_PROXY) itself
        return httpx2.Client(**options)

    def transport(**kw: Any) -> httpx2.HTTPTransport:
        return httpx2.HTTPTransport(limits=limits, socket_options=KEEPALIVE, **kw)

    if not base_url.startswith("http://"):
        return httpx2.Client(transport=transport(), **options)
    # every https:// URL goes to the verifying transport, so the plain one never does TLS
    lazy = _OnFirstUse(transport)
    return httpx2.Client(transport=transport(verify=False), mounts={"https://": lazy}, **options)


def _proxies() -> bool:
    found = urllib.request.getproxies()
    return any(found.get(scheme) for scheme in ("http", "https", "all"))


class _OnFirstUse(httpx2.BaseTransport):
    """A transport built when the first request needs it."""

    def __init__(self, make: Callable[[], httpx2.BaseTransport]) -> None:
        self._make = make
        self._real: httpx2.BaseTransport | None = None
        self._lock = threading.Lock()

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        with self._lock:
            if self._real is None:
                self._real = self._make()
        return self._real.handle_request(request)

    def close(self) -> None:
        if self._real is not None:
            self._real.close()
