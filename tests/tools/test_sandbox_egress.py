"""The network through Unicum's egress proxy, through the real CLI and the real sandbox: every
command has its own network namespace; hosts are reached only through the proxy, which lets
through the domains config.json allows (Claude Code's `sandbox.network.allowedDomains`) and
asks the user for others when the model set `network: true`. Loopback servers stand for the
internet's hosts through `sandbox.network.hosts` (there is no real internet here)."""

from __future__ import annotations

import json
import shutil

import pytest

from my_agent.trust import trust_folder
from tests.helpers.net_helpers import Listener, Site
from tests.helpers.sandbox_helpers import (
    new_world,
    remove,
    sandbox_cli,
    sandbox_problem,
    tool_results,
)

PROBLEM = sandbox_problem()
pytestmark = pytest.mark.skipif(bool(PROBLEM), reason=f"no sandbox: {PROBLEM}")
NAMES = ("pypi.org", "files.example.com", "evil.example", "blocked.example")


@pytest.fixture
def world():
    root, home, project, _ = new_world()
    site = Site(root / "site")
    yield home, project, site
    site.close()
    remove(root)


def configure(home, **network) -> None:
    hosts = {name: "127.0.0.1" for name in NAMES}
    config = {"sandbox": {"network": {"hosts": hosts, **network}}}
    (home / ".unicum-agent" / "config.json").write_text(json.dumps(config))


def curl(site: Site, host: str, tunnel: bool = False) -> str:
    """curl honours HTTPS_PROXY/ALL_PROXY; `tunnel`: through CONNECT, as HTTPS goes."""
    flags = "-sS --max-time 10" + (" --proxytunnel" if tunnel else "")
    return f"curl {flags} http://{host}:{site.port}/ok.txt"


def test_allowed_domains_are_reached_and_others_refused_in_one_line(llm, world):
    home, project, site = world
    configure(home, allowedDomains=["pypi.org", "*.example.com"])
    llm.call("terminal", {"command": curl(site, "pypi.org")})
    llm.call("terminal", {"command": curl(site, "files.example.com", tunnel=True)})
    llm.call("terminal", {"command": curl(site, "evil.example")})
    llm.reply("done")
    done = sandbox_cli(llm, home, project)
    assert done.returncode == 0, done.stderr
    outputs = tool_results(llm)
    assert outputs[0].startswith("site-ok") and outputs[1].startswith("site-ok"), outputs
    assert "site-ok" not in outputs[2] and site.hits == 2, outputs[2]
    assert "refused evil.example (not allowed for this command)" in outputs[2]
    assert "run it again with network: true" in outputs[2]


def test_a_host_not_listed_is_asked_and_denied_domains_never(llm, world):
    home, project, site = world
    configure(home, deniedDomains=["blocked.example"])
    llm.call("terminal", {"command": curl(site, "evil.example"), "network": True})
    llm.call("terminal", {"command": curl(site, "blocked.example"), "network": True})
    llm.reply("done")
    done = sandbox_cli(llm, home, project, "--yes")  # approves what is asked
    assert done.returncode == 0, done.stderr
    outputs = tool_results(llm)
    assert outputs[0].startswith("site-ok"), outputs[0]
    assert "blocked.example blocked by sandbox.network.deniedDomains" in outputs[1]
    assert site.hits == 1
    llm.call("terminal", {"command": curl(site, "evil.example"), "network": True})
    llm.reply("done")
    done = sandbox_cli(llm, home, project)  # -p without --yes: nobody approves
    assert done.returncode == 0, done.stderr
    assert "nobody can approve a host" in tool_results(llm)[0] and site.hits == 1


def test_pip_install_from_an_approved_index(llm, world):
    home, project, site = world
    configure(home)
    llm.call("terminal", {"command": site.pip_install("pypi.org"), "network": True})
    llm.reply("done")
    done = sandbox_cli(llm, home, project, "--yes")
    assert done.returncode == 0, done.stderr
    out = tool_results(llm)[0]
    assert "demo_pkg" in out and "[exit 0" in out, out
    assert (project / "build" / "pkgs" / "demo_pkg" / "__init__.py").is_file()


@pytest.mark.skipif(not shutil.which("npm"), reason="npm is not installed")
def test_npm_install_from_an_approved_registry(llm, world):
    home, project, site = world
    configure(home)
    llm.call("terminal", {"command": site.npm_install("files.example.com"), "network": True})
    llm.reply("done")
    done = sandbox_cli(llm, home, project, "--yes")
    assert done.returncode == 0, done.stderr
    out = tool_results(llm)[0]
    assert "demo-npm-pkg" in out and "[exit 0" in out, out
    assert (project / "node_modules" / "demo-npm-pkg" / "index.js").is_file()


def test_host_abstract_sockets_are_out_of_reach_with_the_network_on(llm, world):
    home, project, site = world
    abstract = Listener(abstract=True)
    through_proxy = f"curl -sS --noproxy '' --max-time 10 http://127.0.0.1:{site.port}/ok.txt"
    try:
        llm.call("terminal", {"command": abstract.probe(), "network": True})
        llm.call("terminal", {"command": through_proxy, "network": True})
        llm.reply("done")
        done = sandbox_cli(llm, home, project, "--yes")
    finally:
        abstract.close()
    assert done.returncode == 0, done.stderr
    outputs = tool_results(llm)
    assert abstract.hits == 0 and "Connection refused" in outputs[0], outputs[0]
    assert outputs[1].startswith("site-ok"), outputs[1]  # the network itself is on


def test_claude_code_settings_allow_domains_but_a_project_cannot(llm, world):
    home, project, site = world
    configure(home)  # only the names → loopback table
    user = {"sandbox": {"enabled": True, "network": {"allowedDomains": ["pypi.org"]}}}
    (home / ".unicum-agent" / "settings.json").write_text(json.dumps(user))
    (project / ".claude").mkdir()
    own = {"sandbox": {"network": {"allowedDomains": ["evil.example"]}}}
    (project / ".claude" / "settings.json").write_text(json.dumps(own))
    trust_folder(project, home / ".unicum-agent")  # its settings load (hooks, rules) ...
    llm.call("terminal", {"command": curl(site, "pypi.org")})
    llm.call("terminal", {"command": curl(site, "evil.example")})  # ... not its domains
    llm.reply("done")
    done = sandbox_cli(llm, home, project)
    assert done.returncode == 0, done.stderr
    outputs = tool_results(llm)
    assert outputs[0].startswith("site-ok"), outputs[0]
    assert "refused evil.example" in outputs[1] and site.hits == 1, outputs[1]
