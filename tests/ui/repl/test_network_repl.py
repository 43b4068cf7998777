"""The network per host in the real REPL and the real sandbox: a host the config does not allow
is asked when a command reaches for it; `s` remembers it for the session, `a` for the project
(approvals.json), and the next session reaches it unasked. Loopback servers stand for the hosts
(`sandbox.network.hosts`; there is no real internet here)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import provider_env
from tests.helpers.net_helpers import Site
from tests.helpers.repl_driver import Repl
from tests.helpers.sandbox_helpers import new_world, remove, sandbox_problem

PROBLEM = sandbox_problem()
pytestmark = pytest.mark.skipif(bool(PROBLEM), reason=f"no sandbox: {PROBLEM}")


@pytest.fixture
def world():
    root, home, project, _ = new_world()
    site = Site(root / "site")
    hosts = {"session.example": "127.0.0.1", "always.example": "127.0.0.1"}
    config = {"sandbox": {"network": {"hosts": hosts}}}
    (home / ".unicum-agent" / "config.json").write_text(json.dumps(config))
    trusted = {"folders": [str(project.resolve())]}
    (home / ".unicum-agent" / "trusted.json").write_text(json.dumps(trusted))
    yield home, project, site
    site.close()
    remove(root)


def start(llm, home, project, *extra: str) -> Repl:
    env = {**provider_env(llm, "anthropic"), "HOME": str(home)}
    env["UNICUM_HOME"] = str(home / ".unicum-agent")
    args = ("--dir", str(project), "--provider", "anthropic", *extra)
    repl = Repl(*args, env=env, timeout=60)
    repl.prompt()
    return repl


def fetch(llm, site: Site, host: str) -> None:
    command = f"curl -sS --max-time 20 http://{host}:{site.port}/ok.txt"
    llm.call("terminal", {"command": command, "network": True})


def test_s_and_a_answers_to_a_host_are_remembered(llm, world):
    home, project, site = world
    fetch(llm, site, "session.example")
    fetch(llm, site, "session.example")  # the same session: not asked again
    llm.reply("fetched twice")
    fetch(llm, site, "always.example")
    llm.reply("fetched always")
    repl = start(llm, home, project)
    try:
        repl.send("fetch it")
        repl.expect(r"reach session\.example\?")
        repl.child.send("s")
        repl.expect(r"→ yes, for the rest of this session")
        repl.expect("fetched twice")
        repl.prompt()
        assert site.hits == 2
        repl.send("fetch the other")
        repl.expect(r"reach always\.example\?")
        repl.child.send("a")
        repl.expect(r"→ yes, always in this project \(saved\)")
        repl.expect("fetched always")
        repl.prompt()
    finally:
        repl.close()
    assert site.hits == 3
    saved = json.loads((home / ".unicum-agent" / "approvals.json").read_text())
    assert [k for keys in saved.values() for k in keys] == ["network:always.example"]
    fetch(llm, site, "always.example")  # a new session: saved, so not asked
    llm.reply("fetched unasked")
    repl = start(llm, home, project)
    try:
        repl.send("fetch again")
        repl.expect("fetched unasked")
        repl.prompt()
    finally:
        repl.close()
    assert site.hits == 4
    assert "reach always.example?" not in repl.text.split("fetch again")[-1]


def test_the_host_question_in_chinese_and_a_refusal(llm, world):
    home, project, site = world
    fetch(llm, site, "session.example")
    llm.reply("好的，不访问。")
    repl = start(llm, home, project, "--lang", "zh")
    try:
        repl.send("取文件")
        repl.expect(r"允许 `curl .*` 访问 session\.example 吗？沙箱里的命令只能访问你允许的主机")
        repl.child.send("n")
        repl.expect("好的，不访问。")
        repl.prompt()
    finally:
        repl.close()
    assert site.hits == 0
    result = [m for m in llm.requests[-1].body["messages"] if isinstance(m["content"], list)]
    text = json.dumps([b for m in result for b in m["content"]], ensure_ascii=False)
    assert "the user refused the network for session.example" in text
