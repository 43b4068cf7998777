"""web_read against a loopback server; web_search provider choice and its offline line.

No test leaves the machine: providers are pointed at loopback servers or at a closed port.
"""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.helpers.tool_helpers import ScriptedUser, make_ctx, run

ARTICLE = """<!doctype html><html><head><title>Unicum notes</title></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Token budgets</h1>
<p>Every byte sent to the model is paid for on every later request, so tool results must be
compact. This paragraph is long enough to count as the main content of the page for the
extractor, which prefers real prose over navigation links and footers.</p>
<p>Second paragraph: old tool outputs become one-line facts.</p></article>
<footer>© footer text</footer></body></html>"""


class Site(BaseHTTPRequestHandler):
    pages: dict[str, tuple[int, str, bytes]] = {}
    posts: list[tuple[str, dict]] = []

    def log_message(self, *args):
        return

    def do_GET(self):  # noqa: N802
        status, ctype, body = self.pages.get(self.path, (404, "text/plain", b"not found"))
        self.send_response(status)
        if status in (301, 302):
            self.send_header("Location", body.decode())
            body = b""
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):  # noqa: N802
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        self.posts.append((self.path, json.loads(raw or b"{}")))
        return self.do_GET()


@pytest.fixture
def site():
    Site.pages, Site.posts = {}, []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Site)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def allowed(workspace, isolated_home):
    """A session in which the user has allowed reading loopback/private addresses."""
    ctx = make_ctx(workspace, isolated_home)
    ctx.approvals.add("private_network:127.0.0.1")
    return ctx


def test_html_becomes_markdown(site, allowed):
    Site.pages["/a"] = (200, "text/html; charset=utf-8", ARTICLE.encode())
    out = run(allowed, "web_read", url=site + "/a")
    assert not out.is_error, out.content
    assert "Every byte sent to the model" in out.content
    assert "one-line facts" in out.content
    assert "footer text" not in out.content and "<p>" not in out.content
    assert out.data["content_type"].startswith("text/html")


def test_loopback_refused_unless_allowed(site, workspace, isolated_home):
    Site.pages["/a"] = (200, "text/plain", b"private data")
    out = run(make_ctx(workspace, isolated_home), "web_read", url=site + "/a")
    assert out.is_error and "loopback or private" in out.content
    assert "private data" not in out.content
    user = ScriptedUser("y")
    asked = run(make_ctx(workspace, isolated_home, prompter=user), "web_read", url=site + "/a")
    assert asked.content == "private data" and "127.0.0.1" in user.questions[0]


def test_only_http_and_https(allowed):
    for url in ("file:///etc/passwd", "ftp://example.com/x", "javascript:alert(1)", "nohost"):
        out = run(allowed, "web_read", url=url)
        assert out.is_error and "only http(s)" in out.content, url


def test_redirect_into_private_network_is_checked(site, workspace, isolated_home):
    Site.pages["/hop"] = (302, "text/plain", (site + "/target").encode())
    Site.pages["/target"] = (200, "text/plain", b"reached")
    ctx = make_ctx(workspace, isolated_home, prompter=ScriptedUser("y", "n"))
    out = run(ctx, "web_read", url=site + "/hop")
    assert out.is_error and "refused" in out.content  # second question (the hop) was 'n'


def test_errors_binaries_and_caps(site, allowed):
    Site.pages["/img"] = (200, "image/png", b"\x89PNG" + bytes(100))
    Site.pages["/long"] = (200, "text/plain", ("word " * 20_000).encode())
    assert "HTTP 404" in run(allowed, "web_read", url=site + "/missing").content
    img = run(allowed, "web_read", url=site + "/img")
    assert img.is_error and "image/png" in img.content
    long = run(allowed, "web_read", url=site + "/long")
    assert len(long.content) < 31_000 and "more characters" in long.content
    assert len(long.data["full_output"]) == len(("word " * 20_000).strip())
    offline = run(allowed, "web_read", url=f"http://127.0.0.1:{closed_port()}/")
    assert offline.is_error and "cannot reach" in offline.content


def test_search_uses_zhipu_when_its_key_is_set(site, allowed, monkeypatch):
    Site.pages["/api/web_search"] = (
        200,
        "application/json",
        json.dumps(
            {
                "id": "1",
                "created": 1,
                "request_id": "r",
                "search_result": [
                    {
                        "title": "GLM docs",
                        "link": "https://docs.bigmodel.cn/x",
                        "content": "智谱 web search result",
                        "icon": "",
                        "media": "",
                        "refer": "ref_1",
                        "publish_date": "",
                    }
                ],
            }
        ).encode(),
    )
    monkeypatch.setenv("ZHIPUAI_API_KEY", "fakeid.fakesecret")
    monkeypatch.setenv("TAVILY_API_KEY", "fake-tavily-key")
    monkeypatch.setenv("ZHIPUAI_BASE_URL", site + "/api")
    out = run(allowed, "web_search", query="智谱 搜索", max_results=3)
    assert not out.is_error, out.content
    assert out.data["provider"] == "zhipu"
    assert out.content == "1. GLM docs\n   https://docs.bigmodel.cn/x\n   智谱 web search result"
    path, body = Site.posts[0]
    assert path == "/api/web_search" and body["search_query"] == "智谱 搜索" and body["count"] == 3


def test_search_uses_tavily_next(site, allowed, monkeypatch):
    Site.pages["/search"] = (
        200,
        "application/json",
        json.dumps(
            {
                "results": [
                    {
                        "title": "Tavily hit",
                        "url": "https://example.com/t",
                        "content": "snippet " * 100,
                    }
                ]
            }
        ).encode(),
    )
    monkeypatch.setenv("TAVILY_API_KEY", "fake-tavily-key")
    monkeypatch.setenv("TAVILY_BASE_URL", site)
    out = run(allowed, "web_search", query="unicum agent")
    assert (
        out.data["provider"] == "tavily"
        and out.data["results"][0]["url"] == "https://example.com/t"
    )
    assert out.content.startswith("1. Tavily hit\n   https://example.com/t\n   snippet snippet")
    assert out.content.endswith("…") and len(out.content) < 400
    assert Site.posts[0][1]["query"] == "unicum agent"


def test_search_offline_is_one_line(allowed, monkeypatch):
    monkeypatch.setenv("ZHIPUAI_API_KEY", "fakeid.fakesecret")
    monkeypatch.setenv("ZHIPUAI_BASE_URL", f"http://127.0.0.1:{closed_port()}/api")
    out = run(allowed, "web_search", query="anything")
    assert out.is_error and "offline or zhipu is unreachable" in out.content
    assert len(out.content.splitlines()) == 1


def test_search_falls_back_to_duckduckgo(allowed, monkeypatch):
    monkeypatch.setenv("DDGS_PROXY", f"http://127.0.0.1:{closed_port()}")  # stays on loopback
    out = run(allowed, "web_search", query="anything")
    assert out.is_error and "duckduckgo" in out.content
    assert len(out.content.splitlines()) == 1


def test_gbk_page(site, allowed):
    page = (
        '<html><head><meta charset="gbk"><title>测试</title></head><body><article>'
        "<h1>标题</h1><p>这是一个很长的中文段落，用来测试网页正文的提取是否能够正确处理GBK编码的"
        "页面内容。这里还有更多的文字，使其足够长以便被识别为正文。</p></article></body></html>"
    )
    Site.pages["/cn"] = (200, "text/html", page.encode("gbk"))
    out = run(allowed, "web_read", url=site + "/cn")
    assert "# 标题" in out.content and "正确处理GBK编码" in out.content


def test_dns_rebinding_after_the_check_is_refused(site, workspace, isolated_home, monkeypatch):
    """The name resolves to a public address when checked, then to 127.0.0.1 when connecting."""
    Site.pages["/secret"] = (200, "text/plain", b"internal admin page")
    port = int(site.rsplit(":", 1)[1])
    real = socket.getaddrinfo
    answers = iter(["93.184.216.34"])

    def rebinding(host, *args, **kwargs):
        if host != "rebind.example":
            return real(host, *args, **kwargs)
        ip = next(answers, "127.0.0.1")
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (ip, args[0] if args else 0))]

    for var in ("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    out = run(
        make_ctx(workspace, isolated_home), "web_read", url=f"http://rebind.example:{port}/secret"
    )
    assert out.is_error and "rebinding" in out.content, out.content
    assert "internal admin page" not in out.content
