"""The egress proxy's rules and request parsing, without a sandbox: Claude Code's
`allowedDomains`/`deniedDomains` shape (wildcards for subdomains, an optional port), the
`hosts` table, and one clear error for a bad setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools.net_proxy import BadRequest, parse
from tools.net_rules import ALLOW, ASK, DENY, NetworkRules, matches
from tools.sandbox import SandboxPolicy


@pytest.mark.parametrize(
    ("pattern", "host", "port", "hit"),
    [
        ("pypi.org", "pypi.org", 443, True),
        ("pypi.org", "PyPI.org.", 80, True),
        ("pypi.org", "evil-pypi.org", 443, False),
        ("pypi.org", "pypi.org.evil.com", 443, False),
        ("*.example.com", "a.b.example.com", 443, True),
        ("*.example.com", "example.com", 443, False),
        ("*.example.com", "badexample.com", 443, False),
        ("github.com:443", "github.com", 443, True),
        ("github.com:443", "github.com", 22, False),
        ("127.0.0.1:8080", "127.0.0.1", 8080, True),
        ("[::1]:8080", "::1", 8080, True),
    ],
)
def test_domain_patterns(pattern, host, port, hit):
    assert matches(pattern, host, port) is hit


def test_denied_wins_and_unlisted_hosts_are_asked():
    rules = NetworkRules.parse(
        {"allowedDomains": ["*.npmjs.org", "x.org"], "deniedDomains": ["bad.npmjs.org"]}
    )
    assert rules.decide("registry.npmjs.org", 443) == ALLOW
    assert rules.decide("bad.npmjs.org", 443) == DENY
    assert rules.decide("other.org", 443) == ASK
    every = rules.with_mode("on")
    assert every.decide("other.org", 443) == ALLOW and every.decide("bad.npmjs.org", 1) == DENY


@pytest.mark.parametrize(
    ("network", "says"),
    [
        ("maybe", "expected on or off"),
        ({"allowedDomain": ["x"]}, "has no allowedDomain"),
        ({"allowedDomains": "pypi.org"}, "must be a list of domains"),
        ({"hosts": {"pypi.org": "not-an-ip"}}, "map names to IP addresses"),
        (["pypi.org"], "must be on, off or an object"),
    ],
)
def test_a_bad_setting_is_one_clear_error(network, says):
    with pytest.raises(ValueError, match=says):
        SandboxPolicy.from_settings({"sandbox": {"network": network}}, None, None)


def test_claude_codes_other_network_keys_are_accepted():
    network = {"allowedDomains": ["github.com"], "allowLocalBinding": True, "httpProxyPort": 8080}
    policy = SandboxPolicy.from_settings({"sandbox": {"network": network}}, None, None)
    assert policy.net.allowed == ("github.com",) and not policy.network


def test_old_settings_still_read():
    assert SandboxPolicy.from_settings({"sandbox": {"network": "on"}}, None, None).network
    assert not SandboxPolicy.from_settings({}, None, None).network
    assert SandboxPolicy.from_settings({"sandbox": {"network": "off"}}, None, "on").network


def test_requests_are_parsed_and_rewritten():
    method, host, port, head = parse(b"CONNECT pypi.org:443 HTTP/1.1\r\nHost: pypi.org:443")
    assert (method, host, port, head) == ("CONNECT", "pypi.org", 443, b"")
    raw = b"GET http://x.org:8080/a?b=1 HTTP/1.1\r\nHost: x.org\r\nProxy-Connection: keep-alive"
    method, host, port, head = parse(raw)
    assert (method, host, port) == ("GET", "x.org", 8080)
    assert head.startswith(b"GET /a?b=1 HTTP/1.1\r\nHost: x.org\r\n")
    assert b"Proxy-Connection" not in head and head.endswith(b"Connection: close\r\n\r\n")
    for bad in (b"GET /relative HTTP/1.1", b"hello", b"GET ftp://x/ HTTP/1.1"):
        with pytest.raises(BadRequest):
            parse(bad)


def test_the_bridge_runs_an_interpreter_outside_the_home(tmp_path):
    from tools.sandbox import bridge_python

    found = bridge_python(tmp_path)  # nothing of ours lives there
    assert found and not found.startswith(str(tmp_path))
    assert bridge_python(Path("/")) == ""  # everything is under that "home": none visible


def test_each_refusal_gets_the_line_the_model_acts_on():
    from tools.sandbox_hints import refused_line

    line = refused_line(
        {
            "a.org": "refused by the user: Let `x` reach a.org? The user says: use the vendored copy",
            "b.org": "unlisted",
            "c.org": "denied",
            "d.org": "refused: Let `x` reach d.org? Not allowed in a non-interactive run",
        }
    )
    assert "the user refused the network for a.org; do not retry" in line
    assert "(the user says: use the vendored copy)" in line
    assert "refused b.org (not allowed for this command); if it needs them, run it again" in line
    assert "c.org blocked by sandbox.network.deniedDomains" in line
    assert "refused d.org: nobody can approve a host in a non-interactive run" in line
