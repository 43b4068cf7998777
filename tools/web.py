"""web_search and web_read. The SDKs and trafilatura are imported only when a call needs them."""

from __future__ import annotations

import ipaddress
import os
import re
import socket
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from tools.base import Tool, ToolContext, ToolError, ToolOutput, params
from tools.permissions import authorize

TIMEOUT = 20  # seconds per request
MAX_DOWNLOAD = 5 * 1024 * 1024
MAX_OUTPUT = 30_000  # characters shown; the full text goes to data["full_output"]
SNIPPET = 300
USER_AGENT = "Mozilla/5.0 (compatible; Unicum coding agent)"
TEXT_TYPES = (
    "text/plain",
    "text/markdown",
    "application/json",
    "text/csv",
    "text/x-",
    "application/xml",
    "text/xml",
    "application/x-yaml",
    "text/yaml",
)
OFFLINE_HINTS = (
    "connect",
    "timeout",
    "timed out",
    "network",
    "resolve",
    "name or service",
    "unreachable",
    "proxy",
    "getaddrinfo",
    "nodename",
)

Result = dict[str, str]  # title, url, snippet


# --- providers -----------------------------------------------------------------------------
def _zhipu(query: str, count: int) -> list[Result]:
    """Zhipu's web search API, posted directly (its SDK pins a PyJWT the MCP SDK cannot use)."""
    import httpx

    base = os.environ.get("ZHIPUAI_BASE_URL") or "https://open.bigmodel.cn/api/paas/v4"
    engine = os.environ.get("UNICUM_ZHIPU_SEARCH_ENGINE", "search_std")
    reply = httpx.post(
        base.rstrip("/") + "/web_search",
        headers={"Authorization": f"Bearer {os.environ['ZHIPUAI_API_KEY']}"},
        json={"search_engine": engine, "search_query": query, "count": count},
        timeout=TIMEOUT,
    )
    reply.raise_for_status()
    items = reply.json().get("search_result") or []
    items = items if isinstance(items, list) else [items]
    return [
        {"title": _get(i, "title"), "url": _get(i, "link"), "snippet": _get(i, "content")}
        for i in items
    ]


def _tavily(query: str, count: int) -> list[Result]:
    from tavily import TavilyClient

    client = TavilyClient(
        api_key=os.environ["TAVILY_API_KEY"], api_base_url=os.environ.get("TAVILY_BASE_URL") or None
    )
    resp = client.search(query, max_results=count, timeout=TIMEOUT)
    return [
        {"title": r.get("title", ""), "url": r.get("url", ""), "snippet": r.get("content", "")}
        for r in resp.get("results", [])
    ]


def _duckduckgo(query: str, count: int) -> list[Result]:
    from ddgs import DDGS

    rows = DDGS(timeout=TIMEOUT).text(query, max_results=count)
    return [
        {"title": r.get("title", ""), "url": r.get("href", ""), "snippet": r.get("body", "")}
        for r in rows
    ]


# (name, the environment variable that enables it, search function), in order of preference
PROVIDERS: tuple[tuple[str, str | None, Callable[[str, int], list[Result]]], ...] = (
    ("zhipu", "ZHIPUAI_API_KEY", _zhipu),
    ("tavily", "TAVILY_API_KEY", _tavily),
    ("duckduckgo", None, _duckduckgo),
)


def _get(item: Any, key: str) -> str:
    value = item.get(key) if isinstance(item, dict) else getattr(item, key, "")
    return str(value or "")


def pick_provider() -> tuple[str, Callable[[str, int], list[Result]]]:
    for name, var, fn in PROVIDERS:
        if var is None or os.environ.get(var):
            return name, fn
    raise AssertionError("the last provider needs no key")


# what a network failure's text says → the words of the one line (first match wins)
NETWORK_REASONS = (
    ("refused", "connection refused"),
    ("dns", "host not found"),
    ("resolv", "host not found"),
    ("name or service", "host not found"),
    ("getaddrinfo", "host not found"),
    ("nodename", "host not found"),
    ("timed out", "timed out"),
    ("timeout", "timed out"),
    ("unreachable", "network unreachable"),
    ("proxy", "the proxy failed"),
)


def _failure(provider: str, exc: Exception) -> ToolError:
    """One line, whatever the search library raised (its texts nest whole exceptions)."""
    text = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
    lowered = text.lower()
    reason = next((words for hint, words in NETWORK_REASONS if hint in lowered), None)
    if reason or any(h in lowered for h in OFFLINE_HINTS) or isinstance(exc, OSError):
        return ToolError(
            f"web_search: offline or {provider} is unreachable ({reason or 'no connection'}); "
            "continue without the web"
        )
    return ToolError(f"web_search failed ({provider}): {' '.join(text.split())[:160]}")


def web_search(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    query = args["query"].strip()
    if not query:
        raise ToolError("query is empty")
    count = min(max(1, int(args.get("max_results", 5))), 20)
    provider, search = pick_provider()
    try:
        results = search(query, count)[:count]
    except Exception as exc:  # SDKs raise their own families; all mean "no results"
        if "no results" in str(exc).lower():
            results = []
        else:
            raise _failure(provider, exc) from None
    rows = []
    for n, r in enumerate(results, 1):
        snippet = " ".join(r["snippet"].split())
        snippet = snippet[:SNIPPET] + ("…" if len(snippet) > SNIPPET else "")
        rows.append(f"{n}. {r['title'].strip()}\n   {r['url']}\n   {snippet}".rstrip())
    body = "\n".join(rows) if rows else f"no results for {query!r}"
    return ToolOutput(
        body,
        data={
            "provider": provider,
            "query": query,
            "results": [{"title": r["title"], "url": r["url"]} for r in results],
        },
    )


# --- web_read ------------------------------------------------------------------------------
def _private_ip(address: str) -> bool:
    addr = ipaddress.ip_address(address.split("%")[0])
    return (
        addr.is_private
        or addr.is_loopback
        or addr.is_link_local
        or addr.is_reserved
        or addr.is_multicast
        or addr.is_unspecified
    )


def _private(host: str) -> bool:
    """True when `host` is or resolves to a loopback, private, link-local or reserved address."""
    try:
        infos = socket.getaddrinfo(host, None)
    except socket.gaierror as exc:
        raise ToolError(f"web_read: cannot resolve {host} ({exc.strerror}); offline?") from None
    return any(_private_ip(info[4][0]) for info in infos)


def check_url(ctx: ToolContext, url: str, checked: dict[str, bool] | None = None) -> bool:
    """Refuse non-http(s) URLs; private addresses need approval. True when private.
    `checked` collects host → private (and approved) for the connection guard."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ToolError(f"web_read: only http(s) URLs can be read, not {url!r}")
    private = _private(parts.hostname)
    if private:
        authorize(
            ctx,
            "private_network",
            f"Read {url}? It is a loopback or private network address.",
            parts.hostname,
        )
    if checked is not None:
        checked[parts.hostname] = checked.get(parts.hostname, False) or private
    return private


def _check_peer(conn: Any, checked: dict[str, bool]) -> None:
    """After connecting: a host checked as public must not have reached a private address
    (DNS rebinding: the name resolved differently the second time)."""
    if conn.host not in checked or getattr(conn, "_tunnel_host", None):
        return  # a proxy: it resolves the name itself
    peer = conn.sock.getpeername()[0]
    if _private_ip(peer) and not checked[conn.host]:
        conn.close()
        raise ToolError(
            f"web_read: {conn.host} was checked as public but the connection "
            f"reached the private address {peer} (DNS rebinding?); refused"
        )


def _guarded_handlers(ctx: ToolContext, checked: dict[str, bool]) -> list[Any]:
    import urllib.request

    def guarded(conn_class: Any) -> Any:
        class Guarded(conn_class):
            def connect(self) -> None:
                super().connect()
                _check_peer(self, checked)

        return Guarded

    class Redirects(urllib.request.HTTPRedirectHandler):
        def redirect_request(self, req, fp, code, msg, headers, newurl):  # noqa: ANN001
            check_url(ctx, newurl, checked)  # no redirect into the private network
            return super().redirect_request(req, fp, code, msg, headers, newurl)

    class Http(urllib.request.HTTPHandler):
        def do_open(self, http_class, req, **kw):  # noqa: ANN001
            return super().do_open(guarded(http_class), req, **kw)

    class Https(urllib.request.HTTPSHandler):
        def do_open(self, http_class, req, **kw):  # noqa: ANN001
            return super().do_open(guarded(http_class), req, **kw)

    return [Redirects(), Http(), Https()]


def fetch(ctx: ToolContext, url: str) -> tuple[bytes, str, str]:
    """(body, content type, final URL) with a timeout and a size cap."""
    import urllib.error
    import urllib.request

    checked: dict[str, bool] = {}
    private = check_url(ctx, url, checked)
    handlers: list[Any] = _guarded_handlers(ctx, checked)
    if private:
        handlers.append(urllib.request.ProxyHandler({}))  # never send local traffic to a proxy
    opener = urllib.request.build_opener(*handlers)
    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    try:
        with opener.open(request, timeout=TIMEOUT) as resp:
            body = resp.read(MAX_DOWNLOAD + 1)
            ctype = resp.headers.get("Content-Type", "")
            final = resp.geturl()
    except urllib.error.HTTPError as exc:
        raise ToolError(f"web_read: HTTP {exc.code} {exc.reason} for {url}") from None
    except urllib.error.URLError as exc:
        raise ToolError(f"web_read: cannot reach {url} ({exc.reason}); offline?") from None
    except TimeoutError:
        raise ToolError(f"web_read: {url} timed out after {TIMEOUT}s") from None
    if len(body) > MAX_DOWNLOAD:
        body = body[:MAX_DOWNLOAD]
    return body, ctype, final


def _charset(ctype: str) -> str:
    m = re.search(r"charset=([\w-]+)", ctype)
    return m.group(1) if m else "utf-8"


def to_markdown(body: bytes, ctype: str, url: str) -> str | None:
    """Readable text: HTML through trafilatura, text types as they are, None for binaries."""
    kind = ctype.split(";")[0].strip().lower()
    looks_html = body.lstrip()[:200].lower().startswith((b"<!doctype html", b"<html"))
    if "html" in kind or (not kind and looks_html):
        import trafilatura

        text = trafilatura.extract(
            body,
            url=url,
            output_format="markdown",
            include_links=True,
            include_tables=True,
            favor_recall=True,
        )
        return text or trafilatura.html2txt(body) or ""
    if kind.startswith(TEXT_TYPES) or kind.startswith("text/") or not kind:
        try:
            return body.decode(_charset(ctype), errors="replace")
        except LookupError:
            return body.decode("utf-8", errors="replace")
    return None


def web_read(ctx: ToolContext, args: dict[str, Any]) -> ToolOutput:
    url = args["url"].strip()
    body, ctype, final = fetch(ctx, url)
    text = to_markdown(body, ctype, final)
    if text is None:
        raise ToolError(f"web_read: {url} is {ctype or 'binary'} ({len(body)} bytes), not text")
    text = text.strip()
    data: dict[str, Any] = {
        "url": url,
        "final_url": final,
        "content_type": ctype,
        "chars": len(text),
    }
    shown = text
    if len(text) > MAX_OUTPUT:
        shown = (
            text[:MAX_OUTPUT] + f"\n[… {len(text) - MAX_OUTPUT} more characters; the full "
            "text is kept and can be recalled]"
        )
        data["full_output"] = text
    head = f"[{final}]\n" if final != url else ""
    return ToolOutput(head + (shown or "(the page has no readable text)"), data=data)


TOOLS = [
    Tool(
        "web_search",
        "Search the web: titles, URLs and snippets.",
        params(["query"], query={"type": "string"}, max_results={"type": "integer", "minimum": 1}),
        web_search,
        key_arg="query",
        read_only=True,
    ),
    Tool(
        "web_read",
        "An http(s) page's main text, as Markdown.",
        params(["url"], url={"type": "string"}),
        web_read,
        key_arg="url",
        read_only=True,
    ),
]
