"""Sub-agents (`task`): a fresh context whose requests never reach the parent's (only the
report does), ledger rows under the parent's task that add up, definitions in Markdown."""

from __future__ import annotations

import json

from tests.conftest import provider_env, run_cli
from tests.core.ledger.test_ledger import ledger_rows

SECRET = "CHILD-ONLY-7f3a9"
REPORT = "REPORT: the rate is computed in tax.py line 2"


def usage(n: int) -> dict[str, int]:
    return {"input": 1000 * n, "cache_read": 10 * n, "cache_write": 0, "output": 7 * n}


def script(llm, agent: str = "") -> None:
    args = {"prompt": "Find where the tax rate is computed.", "description": "find the rate"}
    llm.call("task", {**args, **({"agent": agent} if agent else {})}, usage=usage(1))
    llm.call("read_file", {"path": "tax.py"}, usage=usage(2))  # the child
    llm.reply(REPORT, usage=usage(3))  # the child's report
    llm.reply("The rate is in tax.py.", usage=usage(4))  # the parent again


def texts(body: dict) -> str:
    return json.dumps(body["messages"], ensure_ascii=False)


def run_print(llm, workspace, *extra: str):
    proc = run_cli(
        "--dir",
        str(workspace),
        "-p",
        "where is the tax rate?",
        "--provider",
        "anthropic",
        "--output-format",
        "json",
        *extra,
        env=provider_env(llm, "anthropic"),
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_only_the_report_enters_the_parent_and_the_ledger_adds_up(llm, workspace, isolated_home):
    (workspace / "tax.py").write_text(f"# {SECRET}\nRATE = 0.2\n")
    script(llm)
    result = run_print(llm, workspace)
    parent1, child1, child2, parent2 = (r.body for r in llm.requests)
    assert "where is the tax rate?" not in texts(child1)  # a fresh context: only its prompt
    assert json.loads(texts(child1))[0]["content"][0]["text"].startswith("Find where the tax")
    assert "sub-agent" in json.dumps(child1["system"])
    assert "task" not in {t["name"] for t in child1["tools"]}  # no grandchildren
    assert SECRET in texts(child2)  # the child read the file...
    assert SECRET not in texts(parent2) and SECRET not in json.dumps(parent2)  # ...the parent never
    assert REPORT in texts(parent2)
    assert len(parent2["messages"]) == len(parent1["messages"]) + 2  # one call, one result

    rows = ledger_rows(isolated_home)
    assert len(rows) == 4 and len({r["task_id"] for r in rows}) == 1  # under the parent's task
    assert [r["input_tokens"] for r in rows] == [1000, 2000, 3000, 4000]
    assert sum(r["output_tokens"] for r in rows) == 7 * (1 + 2 + 3 + 4)
    assert result["usage"]["output"] == 7 * (1 + 2 + 3 + 4)  # the sub-agent's requests too
    assert all(r["cost_usd"] > 0 for r in rows)  # each priced, the child's too


def test_a_definition_limits_the_childs_tools_and_gives_its_instructions(llm, workspace):
    (workspace / "tax.py").write_text("RATE = 0.2\n")
    folder = workspace / ".claude" / "agents"
    folder.mkdir(parents=True)
    (folder / "finder.md").write_text(
        "---\nname: finder\ndescription: finds code\ntools: Read, Grep\nmodel: inherit\n---\n"
        "Answer with paths and line numbers only.\n"
    )
    script(llm, agent="finder")
    run_print(llm, workspace)
    parent1, child1 = llm.requests[0].body, llm.requests[1].body
    assert sorted(t["name"] for t in child1["tools"]) == ["read_file", "search_files"]
    assert "Answer with paths and line numbers only." in json.dumps(child1["system"])
    assert "- finder: finds code" in json.dumps(parent1["system"])  # the model knows it


def test_an_unknown_agent_is_an_error_result_and_no_child_runs(llm, workspace):
    llm.call("task", {"prompt": "x", "agent": "nobody"})
    llm.reply("ok")
    run_print(llm, workspace)
    assert len(llm.requests) == 2
    assert "no sub-agent 'nobody'; known: general" in texts(llm.requests[1].body)


def test_a_child_stops_at_its_budget_share_and_reports_so(llm, workspace):
    folder = workspace / ".unicum" / "agents"
    folder.mkdir(parents=True)
    (folder / "frugal.md").write_text("---\nname: frugal\nmax_tokens: 1500\n---\n")
    llm.call("task", {"prompt": "search everything", "agent": "frugal"}, usage=usage(1))
    llm.call("list_files", {}, usage=usage(2))  # the child: 2,014 tokens, over its share
    llm.reply("ok", usage=usage(3))  # the parent: the child made no second request
    run_print(llm, workspace)
    assert len(llm.requests) == 3
    assert "[sub-agent stopped: the sub-agent used its budget share (1,500 tokens)]" in texts(
        llm.requests[2].body
    )
