"""The code map as people and the model see it: tool output, CLI, overview, a scripted session."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from core.agent.session.codemap_hooks import overview_section
from core.agent.session.services import tool_services
from core.codemap.render import MAX_SITES
from my_agent.tokens import estimate_tokens
from tests.conftest import ROOT, provider_env, run_cli
from tools.base import ToolContext
from tools.registry import Registry

FIXTURE = ROOT / "tests" / "fixtures" / "codemap"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return shutil.copytree(FIXTURE, tmp_path / "project")


def _tool(workspace: Path, home: Path, **args) -> tuple[str, bool]:
    ctx = ToolContext(workspace=workspace, home=home, services=tool_services(workspace, home))
    out = Registry.default().execute("code_map", args, ctx)
    return out.content, out.is_error


def _many_callers(root: Path) -> None:
    (root / "core").mkdir()
    (root / "tools").mkdir()
    (root / "core" / "lib.py").write_text("def target(x):\n    return x\n")
    for i in range(30):
        (root / "core" / f"c{i}.py").write_text(
            f"from core.lib import target\n\n\ndef use_{i}():\n    return target({i})\n"
        )
    for i in range(15):
        (root / "tools" / f"t{i}.py").write_text(
            f"from core.lib import target\n\n\ndef tool_{i}():\n    return target({i})\n"
        )
    calls = "".join(f"    target({i})\n" for i in range(5))
    (root / "cli.py").write_text(f"from core.lib import target\n\n\ndef main():\n{calls}")


def test_references_output_is_capped_with_aggregate_line(workspace, isolated_home):
    _many_callers(workspace)
    text, is_error = _tool(workspace, isolated_home, action="references", name="target")
    assert not is_error
    lines = text.splitlines()
    assert lines[0] == "50 call sites in 46 files across core/, tools/, cli.py"
    assert lines[1] == "'target' is defined at core/lib.py:1; imported in 46 lines"
    assert len(lines) == 2 + MAX_SITES + 1
    assert lines[-1] == (
        "… 25 more in tools/, core/; 46 import lines not shown "
        "(narrow with path:name or Class.name; rename lists every site)"
    )
    assert "cli.py:5 in main: target(0)" in lines


def test_tool_actions_and_errors(project, isolated_home):
    text, err = _tool(project, isolated_home, action="definition", name="Tax.compute")
    assert not err and "java/com/shop/Tax.java:4-6 method Tax.compute" in text
    assert "return count * 2;" in text
    text, err = _tool(project, isolated_home, action="outline", path="goapp/server.go")
    assert not err and "16-18 func (s *Server) Start()" in text
    text, err = _tool(project, isolated_home, action="impact", name="HandleRequest")
    assert not err and "goapp/main.go:6 Run" in text and "goapp/server.go:17 Server.Start" in text
    text, err = _tool(project, isolated_home, action="impact", name="web/util.js")
    assert not err and "web/cart.js" in text and "web/view.tsx" in text
    text, err = _tool(project, isolated_home, action="references")
    assert err and "needs name" in text
    text, err = _tool(project, isolated_home, action="explode", name="x")
    assert err and "must be one of" in text
    text, err = _tool(project, isolated_home, action="rename", name="area")
    assert err and "needs new_name" in text
    text, err = _tool(project, isolated_home, action="rename", name="area", new_name="surface")
    assert not err and text.splitlines()[0] == (
        "rename area → surface (dry run): 5 lines in 2 files (3 call sites, 1 definition, 1 import)"
    )
    assert "  1: from pkg.geometry import Shape, area" in text


def test_overview_is_deterministic_budgeted_and_personalized(project, isolated_home):
    first = overview_section(project, "", 400, home=isolated_home)
    again = overview_section(project, "", 400, home=isolated_home)
    assert first.name == "code map" and first.text == again.text
    assert estimate_tokens(first.text) <= 400
    assert "pkg/geometry.py" in first.text
    small = overview_section(project, "", 60, home=isolated_home).text
    assert estimate_tokens(small) <= 60
    hinted = overview_section(project, "the tax in Tax.java is wrong", 400, home=isolated_home)
    assert hinted.text.splitlines()[1] == "java/com/shop/Tax.java"


def test_cli_codemap_commands(project):
    build = run_cli("codemap", "--dir", str(project), "build")
    assert build.returncode == 0, build.stderr
    assert "23 files; parsed 23 (254 lines)" in build.stdout
    stats = run_cli("codemap", "--dir", str(project), "stats")
    assert stats.returncode == 0 and "python" in stats.stdout and "rust" in stats.stdout
    refs = run_cli("codemap", "--dir", str(project), "refs", "area")
    assert refs.returncode == 0, refs.stderr
    assert "3 call sites in 2 files across app.py, pkg/" in refs.stdout
    assert "app.py:6 in report: total = area(square)" in refs.stdout
    defs = run_cli("codemap", "--dir", str(project), "def", "parse_config")
    assert "rustapp/src/config.rs:13-17 function parse_config" in defs.stdout
    impact = run_cli("codemap", "--dir", str(project), "impact", "Shape")
    assert "app.py" in impact.stdout
    as_json = run_cli("codemap", "--dir", str(project), "refs", "area", "--json")
    assert as_json.returncode == 0, as_json.stderr
    assert json.loads(as_json.stdout)["references"][0] == {
        "path": "app.py",
        "line": 6,
        "symbol": "report",
        "confidence": 0.95,
        "kind": "call",
        "reason": "import",
    }
    bad = run_cli("codemap", "--dir", str(project / "nope"), "stats")
    assert bad.returncode == 2 and "not a folder" in bad.stderr and "Traceback" not in bad.stderr


def _system(body: dict) -> str:
    if "system" in body:  # Anthropic Messages
        return "".join(block["text"] for block in body["system"])
    return body["messages"][0]["content"]


def _last_tool_result(body: dict) -> str:
    last = body["messages"][-1]
    if last["role"] == "tool":  # OpenAI Chat Completions
        return last["content"]
    block = last["content"][0]
    assert block["type"] == "tool_result"
    content = block["content"]
    return content if isinstance(content, str) else "".join(c["text"] for c in content)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_agent_session_uses_references_and_gets_call_sites(llm, project, provider):
    llm.call("code_map", {"action": "references", "name": "area"})
    llm.reply("area is called from report and main in app.py.")
    proc = run_cli(
        "--dir",
        str(project),
        "-p",
        "who calls area()?",
        "--provider",
        provider,
        env=provider_env(llm, provider),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "area is called from report and main in app.py."
    first, second = (r.body for r in llm.requests)
    assert "code_map" in {t.get("name") or t["function"]["name"] for t in first["tools"]}
    assert "## Code Map" not in _system(first)  # the overview comes on demand
    assert _system(first) == _system(second)  # stable across turns: the cache prefix holds
    result = _last_tool_result(second)
    assert result.startswith("3 call sites in 2 files")
    assert "app.py:6 in report: total = area(square)" in result
    assert "app.py:12 in main: print(area(Shape(3)))" in result


def test_no_codemap_flag_leaves_the_overview_out(llm, project):
    llm.reply("ok")
    proc = run_cli(
        "--dir",
        str(project),
        "-p",
        "hi",
        "--provider",
        "openai",
        "--no-codemap",
        env=provider_env(llm, "openai"),
    )
    assert proc.returncode == 0, proc.stderr
    assert "Code Map" not in _system(llm.requests[0].body)


def test_impact_is_transitive_and_bounded(workspace, isolated_home):
    from core.codemap import CodeMap

    _many_callers(workspace)
    (workspace / "top.py").write_text("from core.c0 import use_0\n\n\ndef outer():\n    use_0()\n")
    cmap = CodeMap(workspace, isolated_home)
    full = cmap.impact("target")
    bounded = cmap.impact("target", limit=10)
    cmap.close()
    assert full.splitlines()[0].startswith("47 dependents in 47 files")
    assert "depth 2:" in full and "top.py:5 outer  (uses use_0)" in full
    assert bounded.splitlines()[0].startswith("10 dependents")
    assert bounded.splitlines()[-1] == (
        "left out: 10 dependents whose own dependents were not asked for (depth 2 or limits); "
        "36 more dependents over the limit of 10 (ask about a narrower symbol or a dependent)"
    )


def test_code_map_call_leaves_a_one_line_fact(project, isolated_home):
    from core.facts import extract
    from my_agent.messages import ToolCall
    from tools.base import ToolOutput

    text, _ = _tool(project, isolated_home, action="references", name="area")
    fact = extract(
        ToolCall("c1", "code_map", {"action": "references", "name": "area"}), ToolOutput(text)
    )
    assert fact.render() == (
        "[code_map] references area (3 call sites in 2 files across app.py, pkg/)"
    )
